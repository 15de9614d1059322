package io.celer.bench.ticktotrade;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code tshark} packet capture on one interface, written to a pcapng file with nanosecond time stamps taken
 * by the host, and read back frame by frame.
 *
 * <p>Starting it returns only once the capture is seen to be live: probe datagrams go out on the interface
 * until one of them shows in the file, so no measured packet can be sent before the capture sees packets.
 * Stopping it first sends other probes until one shows in the file: the kernel hands captured packets over in
 * order, so every packet sent before is in the file too, and none is lost in a buffer when tshark stops.
 */
final class WireCapture implements AutoCloseable
{
    private static final String TSHARK = "tshark";
    private static final byte[] START_PROBE = "celer-wire-probe-start".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] STOP_PROBE = "celer-wire-probe-stop".getBytes(StandardCharsets.US_ASCII);
    private static final long LIVE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Process process;
    private final DatagramChannel probe;
    private final InetSocketAddress probeTo;
    private final Path file;
    private final Path log;
    private final String timeStampType;

    /**
     * One captured frame, the fields the tick-to-trade benchmark needs.
     *
     * @param epochNanos  capture time, nanoseconds since the epoch.
     * @param udpDstPort  destination port of a UDP frame, else -1.
     * @param tcpDstPort  destination port of a TCP frame, else -1.
     * @param payload     the UDP or TCP payload, maybe empty.
     */
    record Frame(long epochNanos, int udpDstPort, int tcpDstPort, byte[] payload)
    {
    }

    private WireCapture(final Process process, final DatagramChannel probe, final InetSocketAddress probeTo,
        final Path file, final Path log, final String timeStampType)
    {
        this.process = process;
        this.probe = probe;
        this.probeTo = probeTo;
        this.file = file;
        this.log = log;
        this.timeStampType = timeStampType;
    }

    /**
     * Whether {@code tshark} runs here.
     *
     * @return its version line, or null when it is missing or broken.
     */
    static String version()
    {
        try
        {
            final List<String> lines = run(List.of(TSHARK, "--version"), 20);
            if (lines.isEmpty())
            {
                return null;
            }
            final Matcher version = Pattern.compile("(\\d+\\.\\d+\\.\\d+)").matcher(lines.get(0));
            return version.find() ? "tshark " + version.group(1) : lines.get(0);
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    /**
     * Starts capturing and waits until the capture is live.
     *
     * @param interfaceName where to capture, such as {@code lo}.
     * @param filter        a capture filter (BPF) for the packets wanted; probes are added to it.
     * @param file          the pcapng file to write.
     * @param probeFrom     a local address on that interface, to send probes from and to.
     * @return the running capture.
     * @throws IOException when tshark cannot start or the capture does not become live.
     */
    static WireCapture start(final String interfaceName, final String filter, final Path file,
        final InetSocketAddress probeFrom) throws IOException
    {
        Files.deleteIfExists(file);
        final Path log = file.resolveSibling(file.getFileName() + ".log");
        final DatagramChannel probe = DatagramChannel.open();
        try
        {
            probe.bind(probeFrom);
            final InetSocketAddress probeTo = (InetSocketAddress)probe.getLocalAddress();
            final String timeStampType = hostTimeStamps(interfaceName) ? "host" : null;
            final List<String> command = new ArrayList<>(List.of(TSHARK, "-i", interfaceName, "-q", "-n",
                "-f", "(" + filter + ") or (udp and dst port " + probeTo.getPort() + ")", "-w", file.toString()));
            if (timeStampType != null)
            {
                command.add("--time-stamp-type");
                command.add(timeStampType);
            }
            final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
            final WireCapture capture = new WireCapture(process, probe, probeTo, file, log, timeStampType);
            try
            {
                capture.awaitProbe(START_PROBE);
                return capture;
            }
            catch (final IOException | RuntimeException ex)
            {
                capture.close();
                throw ex;
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            probe.close();
            throw ex;
        }
    }

    /** @return the time stamp type asked of the interface, or null for its default. */
    String timeStampType()
    {
        return timeStampType;
    }

    private void awaitProbe(final byte[] marker) throws IOException
    {
        final ByteBuffer datagram = ByteBuffer.wrap(marker);
        final long deadline = System.nanoTime() + LIVE_TIMEOUT_NANOS;
        while (!captured(marker))
        {
            if (!process.isAlive())
            {
                throw new IOException("tshark ended before capturing (exit " + process.exitValue() + "): " + logTail());
            }
            if (System.nanoTime() > deadline)
            {
                throw new IOException("no probe captured within " + TimeUnit.NANOSECONDS.toSeconds(LIVE_TIMEOUT_NANOS)
                    + " s: " + logTail());
            }
            probe.send(datagram.clear(), probeTo);
            sleep(100);
        }
    }

    private boolean captured(final byte[] marker) throws IOException
    {
        // pcapng keeps packet bytes as they were, and dumpcap flushes the file about every 100 ms.
        if (!Files.exists(file))
        {
            return false;
        }
        final byte[] bytes = Files.readAllBytes(file);
        outer:
        for (int i = 0; i + marker.length <= bytes.length; i++)
        {
            for (int j = 0; j < marker.length; j++)
            {
                if (bytes[i + j] != marker[j])
                {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * Stops capturing and waits until the file is complete.
     *
     * @return tshark's closing lines: packets captured, and dropped if any were.
     * @throws IOException when tshark does not stop.
     */
    String stop() throws IOException
    {
        awaitProbe(STOP_PROBE);
        probe.close();
        process.destroy(); // SIGTERM: dumpcap writes what it holds and closes the file
        try
        {
            if (!process.waitFor(20, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException("tshark did not stop within 20 s: " + logTail());
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while stopping tshark", ex);
        }
        final List<String> counts = new ArrayList<>();
        for (final String line : logLines())
        {
            if (line.contains("captured") || line.contains("dropped"))
            {
                counts.add(line);
            }
        }
        return String.join("; ", counts);
    }

    /**
     * Reads the frames of the capture file.
     *
     * @return every frame in capture order.
     * @throws IOException when tshark cannot read it.
     */
    List<Frame> frames() throws IOException
    {
        final List<String> lines = run(List.of(TSHARK, "-r", file.toString(), "-n",
            "-o", "tcp.desegment_tcp_streams:FALSE", "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f",
            "-e", "frame.time_epoch", "-e", "udp.dstport", "-e", "tcp.dstport", "-e", "udp.payload",
            "-e", "tcp.payload"), 600);
        final List<Frame> frames = new ArrayList<>(lines.size());
        for (final String line : lines)
        {
            final Frame frame = parse(line);
            if (frame != null)
            {
                frames.add(frame);
            }
        }
        return frames;
    }

    /**
     * Parses one line of {@code tshark -T fields} output with the fields {@link #frames()} asks for.
     *
     * @param line time, UDP port, TCP port, UDP payload, TCP payload, tab-separated.
     * @return the frame, or null for a line that is not one (tshark's own messages).
     */
    static Frame parse(final String line)
    {
        final String[] fields = line.split("\t", -1);
        if (fields.length < 5 || fields[0].isEmpty() || !Character.isDigit(fields[0].charAt(0)))
        {
            return null;
        }
        return new Frame(epochNanos(fields[0]), port(fields[1]), port(fields[2]),
            hex(fields[3].isEmpty() ? fields[4] : fields[3]));
    }

    /**
     * An epoch time in seconds with a fraction, without going through a double (which would lose nanoseconds).
     *
     * @param seconds such as {@code 1795435972.255384228}.
     * @return nanoseconds since the epoch.
     */
    static long epochNanos(final String seconds)
    {
        final int dot = seconds.indexOf('.');
        if (dot < 0)
        {
            return Long.parseLong(seconds) * 1_000_000_000L;
        }
        final String fraction = (seconds.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.parseLong(seconds.substring(0, dot)) * 1_000_000_000L + Long.parseLong(fraction);
    }

    /**
     * Bytes from tshark's hex, with or without colons between them.
     *
     * @param hex such as {@code 68690a} or {@code 68:69:0a}.
     * @return the bytes.
     */
    static byte[] hex(final String hex)
    {
        return HexFormat.of().parseHex(hex.replace(":", ""));
    }

    private static int port(final String field)
    {
        return field.isEmpty() ? -1 : Integer.parseInt(field);
    }

    private static boolean hostTimeStamps(final String interfaceName)
    {
        try
        {
            for (final String line : run(List.of(TSHARK, "--list-time-stamp-types", "-i", interfaceName), 30))
            {
                if (line.trim().startsWith("host "))
                {
                    return true;
                }
            }
            return false;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    private String logTail()
    {
        final List<String> lines = logLines();
        return lines.isEmpty() ? "(no tshark output)" :
            String.join("; ", lines.subList(Math.max(0, lines.size() - 4), lines.size()));
    }

    private List<String> logLines()
    {
        final List<String> kept = new ArrayList<>();
        try
        {
            for (final String line : Files.readAllLines(log, StandardCharsets.UTF_8))
            {
                // tshark warns about running as root on every start; that says nothing about this capture.
                if (!line.isBlank() && !line.contains("could be dangerous") && !line.trim().equals("tshark:"))
                {
                    kept.add(line.trim());
                }
            }
        }
        catch (final IOException ex)
        {
            // No log: the caller reports tshark's exit instead.
        }
        return kept;
    }

    private static List<String> run(final List<String> command, final int timeoutSeconds) throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            for (String line = in.readLine(); line != null; line = in.readLine())
            {
                lines.add(line);
            }
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new IOException(command.get(0) + " did not end within " + timeoutSeconds + " s");
            }
            if (process.exitValue() != 0 && lines.isEmpty())
            {
                throw new IOException(String.join(" ", command) + " failed with exit " + process.exitValue());
            }
            return lines;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted", ex);
        }
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while waiting for the capture"));
        }
    }

    /**
     * Stops the capture if still running; the file stays.
     */
    @Override
    public void close()
    {
        try
        {
            probe.close();
        }
        catch (final IOException ex)
        {
            // Closing a datagram socket we only sent from; nothing to recover.
        }
        if (process.isAlive())
        {
            process.destroy();
            try
            {
                if (!process.waitFor(10, TimeUnit.SECONDS))
                {
                    process.destroyForcibly();
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
