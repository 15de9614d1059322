package io.celer.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * Reads the histograms Java clients leave in the scratch directory, HdrHistogram's compressed encoding.
 */
public final class HistogramFiles
{
    private HistogramFiles()
    {
    }

    /**
     * Reads one.
     *
     * @param file what a client wrote with {@code encodeIntoCompressedByteBuffer}.
     * @return the histogram.
     * @throws BenchException if the file is corrupt.
     */
    public static Histogram read(final Path file)
    {
        try
        {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Files.readAllBytes(file)), 0);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        catch (final DataFormatException ex)
        {
            throw new BenchException("corrupt histogram in " + file + ": " + ex.getMessage());
        }
    }
}
