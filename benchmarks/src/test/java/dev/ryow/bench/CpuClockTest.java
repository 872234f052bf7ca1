package dev.ryow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading a process's CPU time from {@code /proc/PID/stat}, and a cell's share of it. */
class CpuClockTest {

  @Test
  void userPlusSystemTicksAreFieldsFourteenAndFifteenWhateverTheProcessIsCalled() {
    String mysqld = "27760 (mysqld) S 1 27759 27759 0 -1 4194560 123 0 0 0 1991 57 0 0 20 0 40 0 1234 0 0";
    assertThat(CpuClock.ticks(mysqld)).isEqualTo(1991 + 57);
    String odd = "42 (my (odd) name) R 1 42 42 0 -1 4194560 9 0 0 0 7 3 0 0 20 0 1 0 99 0 0";
    assertThat(CpuClock.ticks(odd)).isEqualTo(10);
  }

  @Test
  void aCellUsesTheDifferenceAndNothingWhenAReadingIsMissing() {
    assertThat(CpuClock.used(new long[] {10, 20, 30}, new long[] {15, 20, 45})).containsExactly(5, 0, 15);
    assertThat(CpuClock.used(new long[0], new long[] {1, 2})).isEmpty();
    assertThat(CpuClock.used(new long[] {1, 2}, new long[0])).isEmpty();
  }

  @Test
  void thisMachinesOwnProcessIsReadable() throws Exception {
    String self = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
    assertThat(CpuClock.ticks(self)).isNotNegative();
    CpuClock none = CpuClock.of(List.of());
    assertThat(none.measures()).isFalse();
    assertThat(none.read()).isEmpty();
  }

  @Test
  void theCpuGroupIsTheCpuControllersLineAloneOrSharedAndNoneOnCgroupV2Only() {
    String v1 = "12:pids:/\n5:cpu:/ryow-26306-primary\n4:cpuacct:/\n0::/\n";
    assertThat(CpuClock.cpuGroup(v1)).isEqualTo("/ryow-26306-primary");
    assertThat(CpuClock.cpuGroup("3:cpu,cpuacct:/ryow-1-replica1\n")).isEqualTo("/ryow-1-replica1");
    assertThat(CpuClock.cpuGroup("4:cpuacct:/x\n5:cpuset:/y\n")).isNull();
    assertThat(CpuClock.cpuGroup("0::/user.slice\n")).isNull();
  }

  @Test
  void aBudgetIsQuotaOverPeriodAndNoQuotaIsNoBudget() {
    assertThat(CpuClock.budget(5_000, 10_000)).isEqualTo(0.5);
    assertThat(CpuClock.budget(-1, 100_000)).isNaN();
    assertThat(CpuClock.budget(5_000, 0)).isNaN();
  }
}
