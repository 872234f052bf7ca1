package dev.ryow.jdbc.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ryow.jdbc.ConsistencyScope;
import dev.ryow.jdbc.TokenCodec;
import dev.ryow.jdbc.gtid.GtidSet;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The message header helper (through a broker, between two JVMs: MessagingIT). */
class MessageTokensTest {
  private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
  private static final TokenCodec CODEC = TokenCodec.of(2048, 64, "a-key-of-sixteen-chars");

  @Test
  void theProducersScopeGoesInTheHeaderAndTheConsumerOpensAScopeWithIt() throws Exception {
    MessageTokens tokens = MessageTokens.of(CODEC);
    assertThat(tokens.header()).isEqualTo("ryowToken");
    assertThat(Character.isJavaIdentifierStart(tokens.header().charAt(0))
        && tokens.header().chars().allMatch(Character::isJavaIdentifierPart)).as("a valid JMS property name").isTrue();
    byte[] header;
    String text;
    try (ConsistencyScope producer = ConsistencyScope.open()) {
      producer.advance(GtidSet.parse(A + ":1-4"));
      text = tokens.outgoing();
      header = tokens.outgoingBytes();
    }
    assertThat(text).isNotNull();
    assertThat(header).isEqualTo(text.getBytes(StandardCharsets.US_ASCII));
    assertThat(CODEC.decode(text)).as("signed with the codec").isEqualTo(GtidSet.parse(A + ":1-4"));
    try (ConsistencyScope consumer = tokens.open(header)) {
      assertThat(ConsistencyScope.current()).isSameAs(consumer);
      assertThat(consumer.gtids()).isEqualTo(GtidSet.parse(A + ":1-4"));
    }
    assertThat(ConsistencyScope.current()).isNull();
  }

  @Test
  void noScopeNoTokenAndABadTokenOpensAnEmptyScope() {
    MessageTokens tokens = MessageTokens.of(CODEC, "X-Other");
    assertThat(tokens.outgoing()).isNull();
    assertThat(tokens.outgoingBytes()).isNull();
    for (String bad : new String[] {null, "", "garbage", TokenCodec.DEFAULT.encode(GtidSet.parse(A + ":1-4"))}) {
      try (ConsistencyScope scope = tokens.open(bad)) {
        assertThat(scope.gtids()).as("%s", bad).isEqualTo(GtidSet.EMPTY);
      }
    }
    try (ConsistencyScope scope = tokens.open((byte[]) null)) {
      assertThat(scope.gtids()).isEqualTo(GtidSet.EMPTY);
    }
    assertThatThrownBy(() -> MessageTokens.of(CODEC, " ")).isInstanceOf(IllegalArgumentException.class);
    assertThat(tokens.toString()).contains("header=X-Other");
  }
}
