package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.CpuList;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

class CpuListTest {
  @Test
  void parsesRangesAndSingles() {
    BitSet s = CpuList.parse("0-3,8,10-11");
    assertThat(s.stream().toArray()).containsExactly(0, 1, 2, 3, 8, 10, 11);
    assertThat(CpuList.format(s)).isEqualTo("0-3,8,10-11");
  }

  @Test
  void emptyIsNoCpus() {
    assertThat(CpuList.parse("").isEmpty()).isTrue();
    assertThat(CpuList.parse("  ").isEmpty()).isTrue();
  }

  @Test
  void mergesAndSorts() {
    assertThat(CpuList.format(CpuList.parse("5, 3-4,0,1"))).isEqualTo("0-1,3-5");
  }

  @Test
  void rejectsMalformed() {
    assertThatThrownBy(() -> CpuList.parse("3-1")).hasMessageContaining("backwards");
    assertThatThrownBy(() -> CpuList.parse("a")).hasMessageContaining("malformed at 'a'");
    assertThatThrownBy(() -> CpuList.parse("1,,2")).hasMessageContaining("malformed");
    assertThatThrownBy(() -> CpuList.parse("-1")).hasMessageContaining("malformed");
  }

  @Test
  void checksMachineSize() {
    assertThat(CpuList.parse("0-7", 8).cardinality()).isEqualTo(8);
    assertThatThrownBy(() -> CpuList.parse("0-8", 8))
        .hasMessageContaining("CPU 8")
        .hasMessageContaining("0-7");
  }
}
