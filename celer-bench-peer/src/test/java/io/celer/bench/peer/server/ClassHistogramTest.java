package io.celer.bench.peer.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class ClassHistogramTest
{
    /** Live until the histogram is taken: 1,000 objects of a class only this test makes. */
    private final List<Marker> markers = new ArrayList<>();

    @Test
    void listsTheLiveClassesLargestFirst()
    {
        for (int i = 0; i < 1000; i++)
        {
            markers.add(new Marker(i));
        }

        final String line = ClassHistogram.line();

        assertThat(line).startsWith(ClassHistogram.PREFIX);
        final String[] rows = line.substring(ClassHistogram.PREFIX.length()).split(" ");
        assertThat(rows.length).isBetween(2, ClassHistogram.MAX_CLASSES);
        long last = Long.MAX_VALUE;
        for (final String row : rows)
        {
            assertThat(row).matches("\\S+=\\d+/\\d+");
            final long bytes = Long.parseLong(row.substring(row.lastIndexOf('=') + 1, row.lastIndexOf('/')));
            assertThat(bytes).as(row).isLessThanOrEqualTo(last);
            last = bytes;
        }
        assertThat(line).as("the markers, 1,000 of them")
            .containsPattern(Pattern.quote(" " + Marker.class.getName() + "=") + "\\d+/1000( |$)");
        assertThat(markers).hasSize(1000);
    }

    private record Marker(int index)
    {
    }
}
