package io.celer.bench.conns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.celer.bench.harness.BenchException;

class ClassGrowthTest
{
    @Test
    void theClassesThatGrewTheMostPerConnectionLargestFirst()
    {
        final String before = "classes [B=10000/100 java.lang.String=2400/100 io.x.Gone=500/5";
        final String after = "classes [B=30000/300 io.x.Conn=11200/100 java.lang.String=2400/100 "
            + "io.x.Conn$$Lambda/0x0000001=1600/100 io.x.Tiny=50/1";

        final List<ClassGrowth> grown = ClassGrowth.between(before, after, 100, 3);

        assertThat(grown).containsExactly(new ClassGrowth("[B", 200, 2), new ClassGrowth("io.x.Conn", 112, 1),
            new ClassGrowth("io.x.Conn$$Lambda/0x0000001", 16, 1));
        assertThat(ClassGrowth.between(before, after, 100, 10)).as("no unchanged class, none under a byte each")
            .extracting(ClassGrowth::name).doesNotContain("java.lang.String", "io.x.Tiny", "io.x.Gone");
    }

    @Test
    void aLineOfAnotherKindIsRefused()
    {
        assertThatThrownBy(() -> ClassGrowth.between("memory heap_used=1", "classes ", 1, 1))
            .isInstanceOf(BenchException.class);
        assertThatThrownBy(() -> ClassGrowth.between("classes [B", "classes ", 1, 1))
            .isInstanceOf(BenchException.class);
    }
}
