package dev.ryow.jdbc.sql;

/**
 * The words the classifier reacts to, as small int codes, with an allocation-free lookup from a
 * region of the SQL text (ASCII case-insensitive, so that {@code ı} or {@code ſ} never match, as in
 * MySQL's own keyword lookup).
 *
 * <p>A code is an index into {@code NAMES}: to add a word, append a constant with the next code and
 * its upper-case spelling at the same index (and its category in the static block if it is a
 * function). {@code KeywordsTest} checks that names are unique and all found.
 */
final class Keywords {

  /** Not a word the classifier knows. */
  static final int NONE = -1;

  static final int SELECT = 0;
  static final int WITH = 1;
  static final int TABLE = 2;
  static final int VALUES = 3;
  static final int SHOW = 4;
  static final int HELP = 5;
  static final int DESCRIBE = 6;
  static final int DESC = 7;
  static final int EXPLAIN = 8;
  static final int ANALYZE = 9;
  static final int SET = 10;
  static final int USE = 11;
  static final int BEGIN = 12;
  static final int START = 13;
  static final int COMMIT = 14;
  static final int ROLLBACK = 15;
  static final int SAVEPOINT = 16;
  static final int RELEASE = 17;
  static final int CREATE = 18;
  static final int ALTER = 19;
  static final int DROP = 20;
  static final int PREPARE = 21;
  static final int EXECUTE = 22;
  static final int DEALLOCATE = 23;
  static final int LOCK = 24;
  static final int DO = 25;
  static final int WORK = 26;
  static final int AND = 27;
  static final int NO = 28;
  static final int CHAIN = 29;
  static final int TO = 30;
  static final int TRANSACTION = 31;
  static final int READ = 32;
  static final int ONLY = 33;
  static final int WRITE = 34;
  static final int CONSISTENT = 35;
  static final int SNAPSHOT = 36;
  static final int TEMPORARY = 37;
  static final int OR = 38;
  static final int REPLACE = 39;
  static final int SESSION = 40;
  static final int LOCAL = 41;
  static final int GLOBAL = 42;
  static final int PERSIST = 43;
  static final int PERSIST_ONLY = 44;
  static final int PASSWORD = 45;
  static final int DEFAULT = 46;
  static final int RESOURCE = 47;
  static final int ROLE = 48;
  static final int STATEMENT = 49;
  static final int WARNINGS = 50;
  static final int ERRORS = 51;
  static final int COUNT = 52;
  static final int PROFILE = 53;
  static final int PROFILES = 54;
  static final int FORMAT = 55;
  static final int EXTENDED = 56;
  static final int PARTITIONS = 57;
  static final int FOR = 58;
  static final int CONNECTION = 59;
  static final int SCHEMA = 60;
  static final int DATABASE = 61;
  static final int INTO = 62;
  static final int NO_WRITE_TO_BINLOG = 63;
  static final int UPDATE = 64;
  static final int DELETE = 65;
  static final int INSERT = 66;
  static final int SHARE = 67;
  static final int IN = 68;
  static final int NEXT = 69;
  static final int PREVIOUS = 70;
  static final int VALUE = 71;
  static final int SQL_CALC_FOUND_ROWS = 72;
  static final int GET_LOCK = 73;
  static final int NEXTVAL = 74;
  static final int SETVAL = 75;
  static final int RELEASE_LOCK = 76;
  static final int RELEASE_ALL_LOCKS = 77;
  static final int IS_USED_LOCK = 78;
  static final int IS_FREE_LOCK = 79;
  static final int LAST_INSERT_ID = 80;
  static final int ROW_COUNT = 81;
  static final int FOUND_ROWS = 82;
  static final int LASTVAL = 83;
  static final int SLEEP = 84;
  static final int UUID_SHORT = 85;
  static final int MASTER_POS_WAIT = 86;
  static final int SOURCE_POS_WAIT = 87;
  static final int WAIT_FOR_EXECUTED_GTID_SET = 88;
  static final int WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS = 89;
  static final int MASTER_GTID_WAIT = 90;
  static final int CONNECTION_ID = 91;
  static final int CONCAT = 92;
  static final int CONCAT_WS = 93;
  static final int IF = 94;
  static final int IFNULL = 95;
  static final int COALESCE = 96;
  static final int NULLIF = 97;
  static final int LOWER = 98;
  static final int LCASE = 99;
  static final int UPPER = 100;
  static final int UCASE = 101;
  static final int TRIM = 102;
  static final int LTRIM = 103;
  static final int RTRIM = 104;
  static final int SUBSTRING = 105;
  static final int SUBSTR = 106;
  static final int SUBSTRING_INDEX = 107;
  static final int LEFT = 108;
  static final int RIGHT = 109;
  static final int LENGTH = 110;
  static final int CHAR_LENGTH = 111;
  static final int CAST = 112;
  static final int CONVERT = 113;
  static final int GREATEST = 114;
  static final int LEAST = 115;
  static final int ABS = 116;
  static final int ROUND = 117;
  static final int FLOOR = 118;
  static final int CEIL = 119;
  static final int CEILING = 120;
  static final int NOW = 121;
  static final int CURRENT_TIMESTAMP = 122;
  static final int UTC_TIMESTAMP = 123;
  static final int UNIX_TIMESTAMP = 124;
  static final int FROM_UNIXTIME = 125;
  static final int DATE_FORMAT = 126;
  static final int STR_TO_DATE = 127;
  static final int USER = 128;
  static final int CURRENT_USER = 129;
  static final int VERSION = 130;
  static final int FIND_IN_SET = 131;
  static final int REGEXP_REPLACE = 132;
  static final int INSTR = 133;
  static final int LOCATE = 134;
  static final int NOT = 135;
  static final int EXISTS = 136;
  static final int INTERVAL = 137;
  static final int XOR = 138;
  static final int IS = 139;
  static final int CHAR = 140;
  static final int HEX = 141;
  static final int UNHEX = 142;
  static final int UUID = 143;
  static final int RAND = 144;
  static final int SYSDATE = 145;
  static final int CURDATE = 146;
  static final int CURTIME = 147;
  static final int CURRENT_DATE = 148;
  static final int CURRENT_TIME = 149;
  static final int UTC_DATE = 150;
  static final int DATE_ADD = 151;
  static final int DATE_SUB = 152;
  static final int MD5 = 153;
  static final int SHA1 = 154;
  static final int SHA2 = 155;
  static final int JSON_OBJECT = 156;
  static final int JSON_ARRAY = 157;
  static final int LPAD = 158;
  static final int RPAD = 159;
  static final int REVERSE = 160;
  static final int MOD = 161;
  static final int POW = 162;
  static final int POWER = 163;
  static final int SIGN = 164;
  static final int TRUNCATE = 165;
  static final int AUTOCOMMIT = 166;
  static final int COMPLETION_TYPE = 167;
  static final int XA = 168;
  static final int END = 169;
  static final int RECOVER = 170;
  static final int PS_CURRENT_THREAD_ID = 171;
  static final int PS_THREAD_ID = 172;
  static final int CURRENT_ROLE = 173;
  static final int ROLES_GRAPHML = 174;
  static final int LOAD_FILE = 175;
  static final int BINLOG_GTID_POS = 176;
  static final int SERVICE_GET_READ_LOCKS = 177;
  static final int SERVICE_GET_WRITE_LOCKS = 178;
  static final int SERVICE_RELEASE_LOCKS = 179;
  static final int FULL = 180;
  static final int COLUMNS = 181;
  static final int FIELDS = 182;
  static final int INDEX = 183;
  static final int INDEXES = 184;
  static final int KEYS = 185;
  static final int DATABASES = 186;
  static final int SCHEMAS = 187;
  static final int TRIGGERS = 188;
  static final int GRANTS = 189;
  static final int TABLES = 190;
  static final int STATUS = 191;
  static final int FUNCTION = 192;
  static final int PROCEDURE = 193;
  static final int CODE = 194;
  static final int VIEW = 195;
  static final int TRIGGER = 196;
  static final int PERFORMANCE_SCHEMA = 197;
  static final int SYS = 198;
  static final int INFORMATION_SCHEMA = 199;

  /** Function category: none. */
  static final int FN_NONE = 0;

  /** Function category: {@code GET_LOCK}, which creates session state on the server. */
  static final int FN_PIN = 1;

  /** Function category: writes (sequences). */
  static final int FN_WRITE = 2;

  /** Function category: session-bound or server-bound; must run on the primary. */
  static final int FN_PRIMARY = 3;

  /** Function category: pure built-ins whose value a {@code SET} can be replayed with. */
  static final int FN_PURE = 4;

  /**
   * Function category: describes the server that runs it ({@code VERSION()}): a query calling it runs
   * on the primary, as with Connector/J alone, but a {@code SET} may be replayed with it.
   */
  static final int FN_SERVER = 5;

  private static final String[] NAMES = {
    "SELECT",
    "WITH",
    "TABLE",
    "VALUES",
    "SHOW",
    "HELP",
    "DESCRIBE",
    "DESC",
    "EXPLAIN",
    "ANALYZE",
    "SET",
    "USE",
    "BEGIN",
    "START",
    "COMMIT",
    "ROLLBACK",
    "SAVEPOINT",
    "RELEASE",
    "CREATE",
    "ALTER",
    "DROP",
    "PREPARE",
    "EXECUTE",
    "DEALLOCATE",
    "LOCK",
    "DO",
    "WORK",
    "AND",
    "NO",
    "CHAIN",
    "TO",
    "TRANSACTION",
    "READ",
    "ONLY",
    "WRITE",
    "CONSISTENT",
    "SNAPSHOT",
    "TEMPORARY",
    "OR",
    "REPLACE",
    "SESSION",
    "LOCAL",
    "GLOBAL",
    "PERSIST",
    "PERSIST_ONLY",
    "PASSWORD",
    "DEFAULT",
    "RESOURCE",
    "ROLE",
    "STATEMENT",
    "WARNINGS",
    "ERRORS",
    "COUNT",
    "PROFILE",
    "PROFILES",
    "FORMAT",
    "EXTENDED",
    "PARTITIONS",
    "FOR",
    "CONNECTION",
    "SCHEMA",
    "DATABASE",
    "INTO",
    "NO_WRITE_TO_BINLOG",
    "UPDATE",
    "DELETE",
    "INSERT",
    "SHARE",
    "IN",
    "NEXT",
    "PREVIOUS",
    "VALUE",
    "SQL_CALC_FOUND_ROWS",
    "GET_LOCK",
    "NEXTVAL",
    "SETVAL",
    "RELEASE_LOCK",
    "RELEASE_ALL_LOCKS",
    "IS_USED_LOCK",
    "IS_FREE_LOCK",
    "LAST_INSERT_ID",
    "ROW_COUNT",
    "FOUND_ROWS",
    "LASTVAL",
    "SLEEP",
    "UUID_SHORT",
    "MASTER_POS_WAIT",
    "SOURCE_POS_WAIT",
    "WAIT_FOR_EXECUTED_GTID_SET",
    "WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS",
    "MASTER_GTID_WAIT",
    "CONNECTION_ID",
    "CONCAT",
    "CONCAT_WS",
    "IF",
    "IFNULL",
    "COALESCE",
    "NULLIF",
    "LOWER",
    "LCASE",
    "UPPER",
    "UCASE",
    "TRIM",
    "LTRIM",
    "RTRIM",
    "SUBSTRING",
    "SUBSTR",
    "SUBSTRING_INDEX",
    "LEFT",
    "RIGHT",
    "LENGTH",
    "CHAR_LENGTH",
    "CAST",
    "CONVERT",
    "GREATEST",
    "LEAST",
    "ABS",
    "ROUND",
    "FLOOR",
    "CEIL",
    "CEILING",
    "NOW",
    "CURRENT_TIMESTAMP",
    "UTC_TIMESTAMP",
    "UNIX_TIMESTAMP",
    "FROM_UNIXTIME",
    "DATE_FORMAT",
    "STR_TO_DATE",
    "USER",
    "CURRENT_USER",
    "VERSION",
    "FIND_IN_SET",
    "REGEXP_REPLACE",
    "INSTR",
    "LOCATE",
    "NOT",
    "EXISTS",
    "INTERVAL",
    "XOR",
    "IS",
    "CHAR",
    "HEX",
    "UNHEX",
    "UUID",
    "RAND",
    "SYSDATE",
    "CURDATE",
    "CURTIME",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "UTC_DATE",
    "DATE_ADD",
    "DATE_SUB",
    "MD5",
    "SHA1",
    "SHA2",
    "JSON_OBJECT",
    "JSON_ARRAY",
    "LPAD",
    "RPAD",
    "REVERSE",
    "MOD",
    "POW",
    "POWER",
    "SIGN",
    "TRUNCATE",
    "AUTOCOMMIT",
    "COMPLETION_TYPE",
    "XA",
    "END",
    "RECOVER",
    "PS_CURRENT_THREAD_ID",
    "PS_THREAD_ID",
    "CURRENT_ROLE",
    "ROLES_GRAPHML",
    "LOAD_FILE",
    "BINLOG_GTID_POS",
    "SERVICE_GET_READ_LOCKS",
    "SERVICE_GET_WRITE_LOCKS",
    "SERVICE_RELEASE_LOCKS",
    "FULL",
    "COLUMNS",
    "FIELDS",
    "INDEX",
    "INDEXES",
    "KEYS",
    "DATABASES",
    "SCHEMAS",
    "TRIGGERS",
    "GRANTS",
    "TABLES",
    "STATUS",
    "FUNCTION",
    "PROCEDURE",
    "CODE",
    "VIEW",
    "TRIGGER",
    "PERFORMANCE_SCHEMA",
    "SYS",
    "INFORMATION_SCHEMA"
  };

  private static final int[] CATEGORY = new int[NAMES.length];

  /** Every word, for the words that decide a statement's kind and for called functions. */
  private static final WordTable ALL;

  /**
   * The words that matter wherever they appear in a statement (see {@link #scanCode}): a small table,
   * so that most identifiers of a statement are rejected at once.
   */
  private static final WordTable SCAN;

  /** For each length up to the longest of {@link #SCAN}'s words: a bit per first letter (a = bit 0) of those words. */
  private static final int[] SCAN_LETTERS;

  /** As {@link #SCAN_LETTERS}, for the last letters ({@code id} passes the first-letter filter of {@code IN}, not this one). */
  private static final int[] SCAN_LAST_LETTERS;

  /** The functions (the words with a category), for calls: any other word called is an unknown function. */
  private static final WordTable FUNCTIONS;

  /** The lengths of the names of the {@link #FN_PIN} functions. */
  private static final boolean[] PIN_LENGTHS;

  /** Whether a code is one of {@link #SCAN}'s. */
  private static final boolean[] MATTERS = new boolean[NAMES.length];

  static {
    CATEGORY[GET_LOCK] = FN_PIN;
    CATEGORY[NEXTVAL] = FN_WRITE;
    CATEGORY[SETVAL] = FN_WRITE;
    CATEGORY[RELEASE_LOCK] = FN_PRIMARY;
    CATEGORY[RELEASE_ALL_LOCKS] = FN_PRIMARY;
    CATEGORY[IS_USED_LOCK] = FN_PRIMARY;
    CATEGORY[IS_FREE_LOCK] = FN_PRIMARY;
    CATEGORY[LAST_INSERT_ID] = FN_PRIMARY;
    CATEGORY[ROW_COUNT] = FN_PRIMARY;
    CATEGORY[FOUND_ROWS] = FN_PRIMARY;
    CATEGORY[LASTVAL] = FN_PRIMARY;
    CATEGORY[SLEEP] = FN_PRIMARY;
    CATEGORY[UUID_SHORT] = FN_PRIMARY;
    CATEGORY[MASTER_POS_WAIT] = FN_PRIMARY;
    CATEGORY[SOURCE_POS_WAIT] = FN_PRIMARY;
    CATEGORY[WAIT_FOR_EXECUTED_GTID_SET] = FN_PRIMARY;
    CATEGORY[WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS] = FN_PRIMARY;
    CATEGORY[MASTER_GTID_WAIT] = FN_PRIMARY;
    CATEGORY[CONNECTION_ID] = FN_PRIMARY;
    CATEGORY[PS_CURRENT_THREAD_ID] = FN_PRIMARY;
    CATEGORY[PS_THREAD_ID] = FN_PRIMARY;
    CATEGORY[CURRENT_ROLE] = FN_PRIMARY;
    CATEGORY[ROLES_GRAPHML] = FN_PRIMARY;
    CATEGORY[LOAD_FILE] = FN_PRIMARY;
    CATEGORY[BINLOG_GTID_POS] = FN_PRIMARY;
    CATEGORY[SERVICE_GET_READ_LOCKS] = FN_PIN;
    CATEGORY[SERVICE_GET_WRITE_LOCKS] = FN_PIN;
    CATEGORY[SERVICE_RELEASE_LOCKS] = FN_PRIMARY;
    CATEGORY[CONCAT] = FN_PURE;
    CATEGORY[CONCAT_WS] = FN_PURE;
    CATEGORY[IF] = FN_PURE;
    CATEGORY[IFNULL] = FN_PURE;
    CATEGORY[COALESCE] = FN_PURE;
    CATEGORY[NULLIF] = FN_PURE;
    CATEGORY[LOWER] = FN_PURE;
    CATEGORY[LCASE] = FN_PURE;
    CATEGORY[UPPER] = FN_PURE;
    CATEGORY[UCASE] = FN_PURE;
    CATEGORY[TRIM] = FN_PURE;
    CATEGORY[LTRIM] = FN_PURE;
    CATEGORY[RTRIM] = FN_PURE;
    CATEGORY[SUBSTRING] = FN_PURE;
    CATEGORY[SUBSTR] = FN_PURE;
    CATEGORY[SUBSTRING_INDEX] = FN_PURE;
    CATEGORY[LEFT] = FN_PURE;
    CATEGORY[RIGHT] = FN_PURE;
    CATEGORY[LENGTH] = FN_PURE;
    CATEGORY[CHAR_LENGTH] = FN_PURE;
    CATEGORY[CAST] = FN_PURE;
    CATEGORY[CONVERT] = FN_PURE;
    CATEGORY[GREATEST] = FN_PURE;
    CATEGORY[LEAST] = FN_PURE;
    CATEGORY[ABS] = FN_PURE;
    CATEGORY[ROUND] = FN_PURE;
    CATEGORY[FLOOR] = FN_PURE;
    CATEGORY[CEIL] = FN_PURE;
    CATEGORY[CEILING] = FN_PURE;
    CATEGORY[NOW] = FN_PURE;
    CATEGORY[CURRENT_TIMESTAMP] = FN_PURE;
    CATEGORY[UTC_TIMESTAMP] = FN_PURE;
    CATEGORY[UNIX_TIMESTAMP] = FN_PURE;
    CATEGORY[FROM_UNIXTIME] = FN_PURE;
    CATEGORY[DATE_FORMAT] = FN_PURE;
    CATEGORY[STR_TO_DATE] = FN_PURE;
    CATEGORY[USER] = FN_PURE;
    CATEGORY[CURRENT_USER] = FN_PURE;
    CATEGORY[VERSION] = FN_SERVER;
    CATEGORY[FIND_IN_SET] = FN_PURE;
    CATEGORY[REGEXP_REPLACE] = FN_PURE;
    CATEGORY[INSTR] = FN_PURE;
    CATEGORY[LOCATE] = FN_PURE;
    CATEGORY[NOT] = FN_PURE;
    CATEGORY[EXISTS] = FN_PURE;
    CATEGORY[INTERVAL] = FN_PURE;
    CATEGORY[XOR] = FN_PURE;
    CATEGORY[IS] = FN_PURE;
    CATEGORY[CHAR] = FN_PURE;
    CATEGORY[HEX] = FN_PURE;
    CATEGORY[UNHEX] = FN_PURE;
    CATEGORY[REPLACE] = FN_PURE;
    CATEGORY[IN] = FN_PURE;
    CATEGORY[AND] = FN_PURE;
    CATEGORY[OR] = FN_PURE;
    CATEGORY[DATABASE] = FN_PURE;
    CATEGORY[SCHEMA] = FN_PURE;
    CATEGORY[UUID] = FN_PURE;
    CATEGORY[RAND] = FN_PURE;
    CATEGORY[SYSDATE] = FN_PURE;
    CATEGORY[CURDATE] = FN_PURE;
    CATEGORY[CURTIME] = FN_PURE;
    CATEGORY[CURRENT_DATE] = FN_PURE;
    CATEGORY[CURRENT_TIME] = FN_PURE;
    CATEGORY[UTC_DATE] = FN_PURE;
    CATEGORY[DATE_ADD] = FN_PURE;
    CATEGORY[DATE_SUB] = FN_PURE;
    CATEGORY[MD5] = FN_PURE;
    CATEGORY[SHA1] = FN_PURE;
    CATEGORY[SHA2] = FN_PURE;
    CATEGORY[JSON_OBJECT] = FN_PURE;
    CATEGORY[JSON_ARRAY] = FN_PURE;
    CATEGORY[LPAD] = FN_PURE;
    CATEGORY[RPAD] = FN_PURE;
    CATEGORY[REVERSE] = FN_PURE;
    CATEGORY[MOD] = FN_PURE;
    CATEGORY[POW] = FN_PURE;
    CATEGORY[POWER] = FN_PURE;
    CATEGORY[SIGN] = FN_PURE;
    CATEGORY[TRUNCATE] = FN_PURE;
    int[] all = new int[NAMES.length];
    for (int code = 0; code < NAMES.length; code++) {
      all[code] = code;
    }
    ALL = new WordTable(NAMES, all);
    int[] scan = {
      UPDATE, SHARE, IN, FOR, DELETE, INTO, SELECT, GLOBAL, PERSIST, PERSIST_ONLY, AUTOCOMMIT, COMPLETION_TYPE,
      SQL_CALC_FOUND_ROWS, INSERT, REPLACE, BEGIN, LOCK, VALUE, NEXT, PREVIOUS
    };
    String[] scanNames = new String[scan.length];
    for (int i = 0; i < scan.length; i++) {
      scanNames[i] = NAMES[scan[i]];
    }
    SCAN = new WordTable(scanNames, scan);
    int longestScanned = 0;
    for (int code : scan) {
      MATTERS[code] = true;
      longestScanned = Math.max(longestScanned, NAMES[code].length());
    }
    SCAN_LETTERS = new int[longestScanned + 1];
    SCAN_LAST_LETTERS = new int[longestScanned + 1];
    for (int code : scan) {
      String name = NAMES[code];
      SCAN_LETTERS[name.length()] |= 1 << (name.charAt(0) - 'A');
      SCAN_LAST_LETTERS[name.length()] |= 1 << (name.charAt(name.length() - 1) - 'A');
    }
    int functions = 0;
    for (int code = 0; code < NAMES.length; code++) {
      functions += CATEGORY[code] == FN_NONE ? 0 : 1;
    }
    String[] functionNames = new String[functions];
    int[] functionCodes = new int[functions];
    for (int code = 0, f = 0; code < NAMES.length; code++) {
      if (CATEGORY[code] != FN_NONE) {
        functionNames[f] = NAMES[code];
        functionCodes[f++] = code;
      }
    }
    FUNCTIONS = new WordTable(functionNames, functionCodes);
    int longestPin = 0;
    for (int code = 0; code < NAMES.length; code++) {
      longestPin = CATEGORY[code] == FN_PIN ? Math.max(longestPin, NAMES[code].length()) : longestPin;
    }
    PIN_LENGTHS = new boolean[longestPin + 1];
    for (int code = 0; code < NAMES.length; code++) {
      if (CATEGORY[code] == FN_PIN) {
        PIN_LENGTHS[NAMES[code].length()] = true;
      }
    }
  }

  private Keywords() {}

  /** The code of the word {@code s[start, end)}, or {@link #NONE}. */
  static int lookup(String s, int start, int end) {
    return ALL.lookup(s, start, end, NONE);
  }

  /**
   * The code of the word {@code s[start, end)} if it is one of the words whose mere presence in a
   * statement matters ({@code UPDATE}, {@code SHARE}, {@code IN}, {@code FOR}, {@code DELETE},
   * {@code INTO}, {@code SELECT}, {@code GLOBAL}, {@code PERSIST}, {@code PERSIST_ONLY},
   * {@code AUTOCOMMIT}, {@code COMPLETION_TYPE}, {@code SQL_CALC_FOUND_ROWS}, {@code INSERT},
   * {@code REPLACE}, {@code BEGIN}, and {@code LOCK}, {@code VALUE}, {@code NEXT}, {@code PREVIOUS}
   * before them), otherwise {@link #NONE}.
   */
  static int scanCode(String s, int start, int end) {
    return scanCode(s, start, end, s.charAt(start));
  }

  /** {@link #scanCode(String, int, int)} of a word whose first char, {@code first}, the caller has read. */
  static int scanCode(String s, int start, int end, char first) {
    // Most words fail the filter of their length and first letter, most others that of their last
    // letter (every word of the table ends with a letter).
    int length = end - start;
    if (length >= SCAN_LETTERS.length || !hasLetter(SCAN_LETTERS[length], first)
        || !hasLetter(SCAN_LAST_LETTERS[length], s.charAt(end - 1))) {
      return NONE;
    }
    return SCAN.lookup(s, start, end, NONE);
  }

  /** Whether {@code ch} is an ASCII letter, either case, whose bit (a = bit 0) is set in {@code letters}. */
  private static boolean hasLetter(int letters, char ch) {
    int letter = (ch | 0x20) - 'a';
    return letter >= 0 && letter <= 'z' - 'a' && (letters & (1 << letter)) != 0;
  }

  /**
   * The code of the word {@code s[start, end)} if it is a function the classifier knows (one with a
   * {@link #category} other than {@link #FN_NONE}), otherwise {@link #NONE}: what a call needs.
   */
  static int functionCode(String s, int start, int end) {
    return FUNCTIONS.lookup(s, start, end, NONE);
  }

  /** Whether {@link #scanCode} finds the word of {@code code} ({@link #NONE}: false). */
  static boolean matters(int code) {
    return code >= 0 && MATTERS[code];
  }

  /** Whether a word of {@code length} chars may be a function of category {@link #FN_PIN}. */
  static boolean mayPin(int length) {
    return length < PIN_LENGTHS.length && PIN_LENGTHS[length];
  }

  /** The function category of a code ({@link #FN_NONE} for {@link #NONE}). */
  static int category(int code) {
    return code < 0 ? FN_NONE : CATEGORY[code];
  }

  /** The upper-case spelling of a code, for tests. */
  static String name(int code) {
    return NAMES[code];
  }

  /** How many codes there are, for tests. */
  static int count() {
    return NAMES.length;
  }
}
