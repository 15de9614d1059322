package io.celer.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link HeaderFieldParser#scan} fills a {@link HeadFields} table that starts small and grows, kept, up to its
 * most fields, past which a head is refused; and its one pass over each line finds what a parser that first
 * splits the lines at their line feeds finds, error for error.
 */
class HeaderFieldParserTest
{
    private static ByteBuffer fields(final int count)
    {
        final StringBuilder section = new StringBuilder();
        for (int i = 0; i < count; i++)
        {
            section.append("X-Field-").append(i).append(": value ").append(i).append("\r\n");
        }
        return ByteBuffer.wrap(section.toString().getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void theTableGrowsPastItsFirstRoomAndKeepsWhatItGrew()
    {
        final HeadFields table = new HeadFields(100);
        final ByteBuffer forty = fields(40);
        assertThat(HeaderFieldParser.scan(forty, 0, 0, forty.limit(), false, table)).isEqualTo(40);
        table.attach(forty, 0);
        assertThat(table.value("X-Field-39").toString()).isEqualTo("value 39");
        assertThat(table.name(20).toString()).isEqualTo("X-Field-20");
        final int[] grown = table.nameStart;

        final ByteBuffer thirty = fields(30);
        assertThat(HeaderFieldParser.scan(thirty, 0, 0, thirty.limit(), false, table)).isEqualTo(30);
        assertThat(table.nameStart).as("no new arrays for a smaller head").isSameAs(grown);
    }

    @Test
    void aHeadOverTheMostFieldsIsRefused()
    {
        final HeadFields table = new HeadFields(100);
        final ByteBuffer hundred = fields(100);
        assertThat(HeaderFieldParser.scan(hundred, 0, 0, hundred.limit(), false, table)).isEqualTo(100);
        final ByteBuffer tooMany = fields(101);
        assertThat(HeaderFieldParser.scan(tooMany, 0, 0, tooMany.limit(), false, table))
            .isEqualTo(HeaderFieldParser.TOO_MANY);
    }

    @Test
    void onePassPerLineAgreesWithSplittingTheLinesFirst()
    {
        final SplittableRandom random = new SplittableRandom(29);
        final String[] pieces = {"Host", "host", "X-A", "a", ":", ": ", " ", "\t", "value", "v v", "\r\n", "\r", "\n",
            "\u0001", "\u007f", "\u0000", "\u00e9", "(", "\"", "keep-alive", ",", "\r\n ", "\r\n\t"};
        for (int round = 0; round < 50_000; round++)
        {
            final StringBuilder text = new StringBuilder();
            final int lines = 1 + random.nextInt(4);
            for (int l = 0; l < lines; l++)
            {
                if (random.nextInt(4) == 0)
                {
                    final int parts = 1 + random.nextInt(6);
                    for (int p = 0; p < parts; p++)
                    {
                        text.append(pieces[random.nextInt(pieces.length)]);
                    }
                }
                else
                {
                    text.append(pieces[random.nextInt(3)]).append(": ").append(pieces[8 + random.nextInt(2)]);
                }
                text.append("\r\n");
            }
            final byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
            // The section ends where the caller's scanner would find the first empty line, and has one after it.
            final int sectionEnd = sectionEnd(bytes);
            if (sectionEnd < 0)
            {
                continue;
            }
            final boolean fold = random.nextBoolean();
            final ByteBuffer ours = ByteBuffer.wrap(bytes.clone());
            final ByteBuffer theirs = ByteBuffer.wrap(bytes.clone());
            final HeadFields ourTable = new HeadFields(3);
            final HeadFields theirTable = new HeadFields(3);
            final int expected = splitFirst(theirs, sectionEnd, fold, theirTable);
            final int actual = HeaderFieldParser.scan(ours, 0, 0, sectionEnd, fold, ourTable);
            final String shown = text.toString().replace("\r", "\\r").replace("\n", "\\n");
            assertThat(actual).as("'%s', folds %s", shown, fold).isEqualTo(expected);
            for (int f = 0; f < Math.max(0, actual); f++)
            {
                assertThat(new int[] {ourTable.nameStart(f), ourTable.nameEnd(f), ourTable.valueStart(f),
                    ourTable.valueEnd(f)}).as("'%s' field %d", shown, f).containsExactly(theirTable.nameStart(f),
                    theirTable.nameEnd(f), theirTable.valueStart(f), theirTable.valueEnd(f));
            }
            if (actual >= 0)
            {
                assertThat(ours.array()).as("'%s': folds replaced alike", shown).isEqualTo(theirs.array());
            }
            // A head read whole takes the one-pass path when its fields are well-formed and unfolded, and finds
            // what the scan finds; otherwise it declines.
            final HeadFields wholeTable = new HeadFields(3);
            final int end = HeaderFieldParser.scanWhole(ByteBuffer.wrap(bytes), 0, 0, bytes.length, wholeTable);
            final String section = text.substring(0, sectionEnd);
            final boolean folded = section.contains("\r\n ") || section.contains("\r\n\t") ||
                section.startsWith(" ") || section.startsWith("\t");
            if (expected >= 0 && !folded)
            {
                assertThat(end).as("'%s' read whole", shown).isEqualTo(sectionEnd + 2);
                assertThat(wholeTable.count()).isEqualTo(expected);
                for (int f = 0; f < expected; f++)
                {
                    assertThat(new int[] {wholeTable.nameStart(f), wholeTable.nameEnd(f), wholeTable.valueStart(f),
                        wholeTable.valueEnd(f)}).as("'%s' field %d read whole", shown, f).containsExactly(
                        theirTable.nameStart(f), theirTable.nameEnd(f), theirTable.valueStart(f),
                        theirTable.valueEnd(f));
                }
            }
            else
            {
                assertThat(end).as("'%s' read whole", shown).isEqualTo(-1);
            }
        }
    }

    /** Where the first empty line (CRLF or bare LF) after a line feed starts, or -1 when none has a CRLF. */
    private static int sectionEnd(final byte[] bytes)
    {
        if (bytes.length >= 2 && bytes[0] == '\r' && bytes[1] == '\n')
        {
            return 0;
        }
        for (int i = 0; i + 2 < bytes.length; i++)
        {
            if (bytes[i] == '\n' && bytes[i + 1] == '\r' && bytes[i + 2] == '\n')
            {
                return i + 1;
            }
            if (bytes[i] == '\n' && bytes[i + 1] == '\n')
            {
                return -1;
            }
        }
        return -1;
    }

    /** The parser as it was before it read each line once: lines split at their LFs, then name, then value. */
    private static int splitFirst(final ByteBuffer buffer, final int sectionEnd, final boolean allowObsFold,
        final HeadFields into)
    {
        int count = 0;
        int line = 0;
        while (line < sectionEnd)
        {
            int lf = line;
            while (lf < Math.min(sectionEnd + 2, buffer.limit()) && buffer.get(lf) != '\n')
            {
                lf++;
            }
            if (lf == Math.min(sectionEnd + 2, buffer.limit()) || lf == line || buffer.get(lf - 1) != '\r')
            {
                return HeaderFieldParser.LINE_END;
            }
            final int end = lf - 1;
            final byte first = buffer.get(line);
            if (first == ' ' || first == '\t')
            {
                if (!allowObsFold || count == 0)
                {
                    return HeaderFieldParser.FOLD;
                }
                buffer.put(line - 2, (byte)' ');
                buffer.put(line - 1, (byte)' ');
                if (!valueChars(buffer, line, end))
                {
                    return HeaderFieldParser.VALUE_CHAR;
                }
                final int foldEnd = HeaderFieldParser.lastNonSpace(buffer, line, end);
                if (foldEnd > line)
                {
                    if (into.valueStart[count - 1] == into.valueEnd[count - 1])
                    {
                        into.valueStart[count - 1] = HeaderFieldParser.firstNonSpace(buffer, line, foldEnd);
                    }
                    into.valueEnd[count - 1] = foldEnd;
                }
                line = lf + 1;
                continue;
            }
            int colon = line;
            while (colon < end && Ascii.isTchar(buffer.get(colon)))
            {
                colon++;
            }
            if (colon == line || colon == end || buffer.get(colon) != ':')
            {
                return HeaderFieldParser.NAME;
            }
            if (count == into.nameStart.length && !into.grow())
            {
                return HeaderFieldParser.TOO_MANY;
            }
            final int vs = HeaderFieldParser.firstNonSpace(buffer, colon + 1, end);
            if (!valueChars(buffer, vs, end))
            {
                return HeaderFieldParser.VALUE_CHAR;
            }
            into.nameStart[count] = line;
            into.nameEnd[count] = colon;
            into.valueStart[count] = vs;
            into.valueEnd[count] = HeaderFieldParser.lastNonSpace(buffer, vs, end);
            count++;
            line = lf + 1;
        }
        into.count = count;
        return count;
    }

    /** Whether every byte is one a field value may hold: not a control char but HTAB, nor DEL. */
    private static boolean valueChars(final ByteBuffer buffer, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final int b = buffer.get(i) & 0xFF;
            if (b < 0x20 && b != '\t' || b == 0x7F)
            {
                return false;
            }
        }
        return true;
    }
}
