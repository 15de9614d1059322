package io.celer.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counters in memory, read back through the reader: names, tags, types, freeing, reuse, and histograms.
 */
class CountersTest
{
    @Test
    void filesOfProcessesThatDiedAreDeletedAndTheOthersKept(@TempDir final Path dir) throws Exception
    {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final long deadPid = gone.pid();
        final Path dead = Files.createFile(dir.resolve(deadPid + ".counters"));
        final Path live = Files.createFile(dir.resolve(ProcessHandle.current().pid() + ".counters"));
        final Path notAPid = Files.createFile(dir.resolve("notes.counters"));
        final Path unrelated = Files.createFile(dir.resolve(deadPid + ".txt"));
        assumeTrue(ProcessHandle.of(deadPid).isEmpty(), "the pid was taken again at once");

        assertThat(Counters.deleteStale(dir)).isEqualTo(1);
        assertThat(dead).doesNotExist();
        assertThat(live).exists();
        assertThat(notAPid).exists();
        assertThat(unrelated).exists();
    }

    @Test
    void aScopeGivesOneCounterPerNameAndTagAndTheReaderSeesItsValue()
    {
        final Counters counters = Counters.inMemory(64);
        final CounterScope scope = counters.scope("r");
        final Counter closed = scope.total("tcp.connections.closed", "reason=peer_closed");
        assertThat(scope.total("tcp.connections.closed", "reason=peer_closed")).isSameAs(closed);
        assertThat(scope.total("tcp.connections.closed", "reason=io_error")).isNotSameAs(closed);
        closed.increment();
        closed.add(4);
        final Counter open = scope.gauge("tcp.connections.open", "");
        open.increment();
        open.increment();
        open.decrement();
        final Counter max = scope.gauge("reactor.cycle.max.nanos", "");
        max.max(7);
        max.max(3);
        final CountersReader reader = counters.reader();
        assertThat(reader.sum("r", "tcp.connections.closed", "reason=peer_closed")).isEqualTo(5);
        assertThat(reader.sum("r", "tcp.connections.closed", "reason=io_error")).isZero();
        assertThat(reader.sum("r", "tcp.connections.open", "")).isEqualTo(1);
        assertThat(reader.sum("r", "reactor.cycle.max.nanos", "")).isEqualTo(7);
        assertThat(reader.snapshot()).extracting(CounterValue::label)
            .containsExactly("r: tcp.connections.closed reason=peer_closed", "r: tcp.connections.closed reason=io_error",
                "r: tcp.connections.open", "r: reactor.cycle.max.nanos");
        assertThat(reader.snapshot()).extracting(CounterValue::type)
            .containsExactly(CounterType.TOTAL, CounterType.TOTAL, CounterType.GAUGE, CounterType.GAUGE);
    }

    @Test
    void aBatchedTotalIsSeenOnlyOnceItsScopeIsFlushedAndAddsToTheTotalOfItsName()
    {
        final Counters counters = Counters.inMemory(64);
        final CounterScope scope = counters.scope("r");
        final BatchedTotal bytes = scope.batchedTotal("tcp.bytes.in", "");
        assertThat(scope.batchedTotal("tcp.bytes.in", "")).isSameAs(bytes);
        bytes.add(100);
        bytes.increment();
        scope.total("tcp.bytes.in", "").add(10);
        final CountersReader reader = counters.reader();
        assertThat(reader.sum("r", "tcp.bytes.in", "")).isEqualTo(10);
        scope.flush();
        assertThat(reader.sum("r", "tcp.bytes.in", "")).isEqualTo(111);
        scope.flush();
        assertThat(reader.sum("r", "tcp.bytes.in", "")).isEqualTo(111);
        assertThat(reader.snapshot()).hasSize(1);
    }

    @Test
    void twoLiveScopesOfOneNameAreToldApartAndAClosedOneIsGone()
    {
        final Counters counters = Counters.inMemory(64);
        final CounterScope first = counters.scope("server");
        final CounterScope second = counters.scope("server");
        assertThat(second.name()).isEqualTo("server#2");
        first.total("a", "").increment();
        second.total("a", "").add(2);
        assertThat(counters.reader().sum("server", "a", "")).isEqualTo(3);
        first.close();
        assertThat(counters.reader().snapshot()).extracting(CounterValue::scope).containsExactly("server#2");
        assertThat(counters.scope("server").name()).isEqualTo("server");
        first.total("late", "").increment(); // a closed scope still hands out counters, shown nowhere
        assertThat(counters.reader().sum("", "late", "")).isZero();
    }

    @Test
    void freedRecordsAreTakenAgainOnlyOnceTheUnusedRunOutAndStartAtZero()
    {
        final Counters counters = Counters.inMemory(64);
        final CounterScope old = counters.scope("old");
        for (int i = 0; i < 60; i++)
        {
            old.total("c", "i=" + i).add(9);
        }
        old.close();
        final CounterScope next = counters.scope("next");
        for (int i = 0; i < 10; i++)
        {
            next.total("c", "i=" + i).increment();
        }
        assertThat(counters.reader().snapshot()).extracting(CounterValue::id).contains(60, 61, 62, 63, 0, 1);
        assertThat(counters.reader().snapshot()).extracting(CounterValue::value).containsOnly(1L);
    }

    @Test
    void aHistogramCountsInLogBucketsAndGivesPercentilesWithinAQuarter()
    {
        final Counters counters = Counters.inMemory(64);
        final LatencyHistogram histogram = counters.scope("r").histogram("http.latency", "route=/q");
        for (long v = 1; v <= 1000; v++)
        {
            histogram.record(v * 1000);
        }
        final CounterValue value = counters.reader().snapshot().get(0);
        assertThat(value.type()).isEqualTo(CounterType.HISTOGRAM);
        final HistogramSnapshot snapshot = value.histogram();
        assertThat(snapshot.count()).isEqualTo(1000);
        assertThat(snapshot.max()).isEqualTo(1_000_000);
        assertThat(snapshot.sum()).isEqualTo(500_500_000L);
        assertThat(snapshot.percentile(50)).isBetween(500_000L, 625_000L);
        assertThat(snapshot.percentile(99)).isBetween(990_000L, 1_000_000L);
        assertThat(snapshot.percentile(100)).isEqualTo(1_000_000);
        for (long v = 0; v < 5_000_000; v = v * 5 / 4 + 1)
        {
            final int bucket = LatencyHistogram.bucket(v);
            assertThat(LatencyHistogram.upperBound(bucket)).as("bound of %d", v).isGreaterThanOrEqualTo(v)
                .isLessThanOrEqualTo(v + v / 4 + 1);
            assertThat(bucket == 0 || LatencyHistogram.upperBound(bucket - 1) < v).as("previous bucket of %d", v).isTrue();
        }
    }
}
