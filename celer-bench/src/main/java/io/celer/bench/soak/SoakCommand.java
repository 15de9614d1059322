package io.celer.bench.soak;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.celer.examples.http.HelloRoutes;
import io.celer.examples.wsfeed.WsFeedServer;
import io.celer.http.server.HttpServer;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import io.celer.websocket.outbound.OverflowPolicy;

/**
 * {@code ./celer soak}: the {@code ws-feed} and {@code http-hello} demo servers under a churn of WebSocket clients
 * (a tenth of them reading nothing) and keep-alive HTTP traffic, for a long time. Samples the process every few
 * seconds; fails when its resident set, heap after a collection or open descriptors grew more than
 * {@code --max-growth} between the end of warm-up and the end, when a reading client lost a message or an HTTP
 * exchange failed, or when connections stay behind once every client left.
 *
 * <p>Servers and clients share the process (each on reactors of their own), so what it measures is the whole:
 * a leak on either side shows.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the ws-feed and http-hello servers under churning, partly slow clients and keep-alive " +
        "HTTP for --duration; fails (exit 1) if memory, descriptors or connections grew beyond --max-growth after " +
        "warm-up, or if anything that must arrive was lost. Writes soak.json and soak.md to --out."},
    footer = {"", "Examples:", "  ./celer soak", "  ./celer soak --duration 60s --clients 200"})
public final class SoakCommand implements Callable<Integer>
{
    @Option(names = "--duration", paramLabel = "D", defaultValue = "30m", converter = DurationConverter.class,
        description = "How long: 90s, 30m, 2h (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", paramLabel = "D", converter = DurationConverter.class,
        description = "Not compared: a third of --duration, at most 5 minutes, by default.")
    Duration warmup;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "1000",
        description = "WebSocket clients connected at once (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--churn", paramLabel = "N", defaultValue = "100",
        description = "Clients replaced a second, the oldest first (default ${DEFAULT-VALUE}).")
    int churn;

    @Option(names = "--slow", paramLabel = "F", defaultValue = "0.1",
        description = "Fraction of clients that read nothing (default ${DEFAULT-VALUE}).")
    double slow;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "10",
        description = "Feed messages a second to each client (default ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--http-connections", paramLabel = "N", defaultValue = "4",
        description = "Keep-alive HTTP clients (default ${DEFAULT-VALUE}).")
    int httpConnections;

    @Option(names = "--http-rate", paramLabel = "R", defaultValue = "250",
        description = "Requests a second from each HTTP client (default ${DEFAULT-VALUE}).")
    int httpRate;

    @Option(names = "--max-growth", paramLabel = "PERCENT", defaultValue = "5",
        description = "Growth allowed after warm-up, of resident set, heap after GC and descriptors " +
            "(default ${DEFAULT-VALUE}).")
    double maxGrowth;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-results",
        description = "Where soak.json and soak.md go (default ${DEFAULT-VALUE}).")
    Path out;

    /**
     * Runs the soak from the command line.
     *
     * @param args its options.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new SoakCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception
    {
        final Duration warm = warmup != null ? warmup
            : Duration.ofMillis(Math.min(duration.toMillis() / 3, Duration.ofMinutes(5).toMillis()));
        if (warm.compareTo(duration) >= 0)
        {
            throw new CommandLine.ParameterException(new CommandLine(this), "--warmup must be shorter than --duration");
        }
        final long sampleMillis = Math.max(1_000, Math.min(10_000, duration.toMillis() / 30));
        final SoakTally tally = new SoakTally();
        final Reactor feedReactor = new Reactor(new ReactorConfig().name("soak-feed").waitInSelector(true)).start();
        final Reactor httpReactor = new Reactor(new ReactorConfig().name("soak-http").waitInSelector(true)).start();
        final Reactor clientReactor = new Reactor(new ReactorConfig().name("soak-clients").waitInSelector(true))
            .start();
        final PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        final WsFeedServer feed = WsFeedServer.open(feedReactor, 0, new TcpConfig().bindAddress("127.0.0.1"),
            new WsFeedServer.Settings(rate, 250, WsFeedServer.outbound(OverflowPolicy.DROP_OLDEST,
                WsFeedServer.DEFAULT_QUEUED_MESSAGES, 250), 1), nowhere);
        final HttpServer hello = new HttpServer(httpReactor, 0,
            HelloRoutes.config(new TcpConfig().bindAddress("127.0.0.1")), new HelloRoutes().router()).open();
        final FeedReaders readers = new FeedReaders(clientReactor,
            "ws://127.0.0.1:" + feed.localAddress().getPort() + "/feed", clients, churn, slow, tally);
        final List<HelloKeepAlive> http = new ArrayList<>();
        final List<Thread> httpThreads = new ArrayList<>();
        final List<SoakSample> samples = new ArrayList<>();
        final long start = System.nanoTime();
        final Instant started = Instant.now();
        boolean drained;
        try
        {
            readers.start();
            for (int i = 0; i < httpConnections; i++)
            {
                final HelloKeepAlive client = new HelloKeepAlive(hello.localAddress().getPort(), httpRate, tally);
                http.add(client);
                final Thread thread = new Thread(client, "soak-http-" + i);
                thread.setDaemon(true);
                thread.start();
                httpThreads.add(thread);
            }
            System.out.printf("soak: %d WebSocket clients (%d replaced a second, %.0f%% reading nothing) at %d " +
                "messages a second each, %d HTTP keep-alive clients at %d requests a second each, for %s " +
                "(warm-up %s)%n", clients, churn, slow * 100, rate, httpConnections, httpRate, text(duration),
                text(warm));
            long nextSample = sampleMillis;
            while (true)
            {
                final long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
                if (elapsedMillis >= duration.toMillis())
                {
                    break;
                }
                Thread.sleep(Math.min(nextSample, duration.toMillis()) - elapsedMillis > 0
                    ? Math.min(nextSample, duration.toMillis()) - elapsedMillis : 1);
                if ((System.nanoTime() - start) / 1_000_000 >= nextSample)
                {
                    final SoakSample sample = SoakSample.take((System.nanoTime() - start) / 1_000_000_000L,
                        feed.clients(), feed.dropped(), tally);
                    samples.add(sample);
                    System.out.println(line(sample));
                    nextSample += sampleMillis;
                }
            }
        }
        finally
        {
            http.forEach(HelloKeepAlive::stop);
            readers.stop();
            for (final Thread thread : httpThreads)
            {
                thread.join(15_000);
            }
            drained = awaitNoClients(feed, 30_000);
            feed.close();
            hello.close();
            clientReactor.close();
            feedReactor.close();
            httpReactor.close();
        }
        return report(samples, warm, drained, tally, started);
    }

    private int report(final List<SoakSample> samples, final Duration warm, final boolean drained,
        final SoakTally tally, final Instant started) throws IOException
    {
        final List<SoakSample> measured = samples.stream().filter(s -> s.seconds() * 1000 >= warm.toMillis())
            .toList();
        final List<String> failures = new ArrayList<>();
        SoakSample first = null;
        SoakSample last = null;
        if (measured.size() < 4)
        {
            failures.add("too few samples after warm-up to compare: " + measured.size());
        }
        else
        {
            final int n = Math.min(3, measured.size() / 2);
            first = SoakSample.median(measured.subList(0, n));
            last = SoakSample.median(measured.subList(measured.size() - n, measured.size()));
            grew(failures, "resident set", first.rss(), last.rss());
            grew(failures, "heap after GC", first.heapAfterGc(), last.heapAfterGc());
            grew(failures, "open descriptors", first.descriptors(), last.descriptors());
        }
        if (tally.fastLost.get() > 0 || tally.outOfOrder.get() > 0)
        {
            failures.add("reading clients lost " + tally.fastLost.get() + " messages, " + tally.outOfOrder.get() +
                " out of order");
        }
        if (tally.failed.get() > 0)
        {
            failures.add(tally.failed.get() + " reading clients closed or failed without being asked to");
        }
        if (tally.httpErrors.get() > 0)
        {
            failures.add(tally.httpErrors.get() + " HTTP exchanges failed");
        }
        if (tally.httpResponses.get() == 0 || tally.messages.get() == 0)
        {
            failures.add("no traffic: " + tally.httpResponses.get() + " HTTP responses, " + tally.messages.get() +
                " feed messages");
        }
        if (!drained)
        {
            failures.add("the feed server still held clients after every client left");
        }
        final String json = json(samples, first, last, failures, tally, warm, started);
        final String markdown = markdown(first, last, failures, tally, warm, started);
        Files.createDirectories(out);
        Files.writeString(out.resolve("soak.json"), json, StandardCharsets.UTF_8);
        Files.writeString(out.resolve("soak.md"), markdown, StandardCharsets.UTF_8);
        System.out.print(markdown);
        System.out.println("written: " + out.resolve("soak.json") + ", " + out.resolve("soak.md"));
        return failures.isEmpty() ? 0 : 1;
    }

    private void grew(final List<String> failures, final String what, final long before, final long after)
    {
        if (before > 0 && after > before * (1 + maxGrowth / 100))
        {
            failures.add(String.format(Locale.ROOT, "%s grew %.1f%% after warm-up (%d to %d), more than %.1f%%",
                what, 100.0 * (after - before) / before, before, after, maxGrowth));
        }
    }

    private static boolean awaitNoClients(final WsFeedServer feed, final long millis) throws InterruptedException
    {
        final long end = System.nanoTime() + millis * 1_000_000;
        while (feed.clients() > 0 && System.nanoTime() < end)
        {
            Thread.sleep(50);
        }
        return feed.clients() == 0;
    }

    private static String line(final SoakSample s)
    {
        return String.format(Locale.ROOT, "t=%ds rss=%d MiB heap=%d MiB fds=%d gc=%d clients=%d messages=%d " +
            "dropped=%d http=%d", s.seconds(), s.rss() >> 20, s.heapAfterGc() >> 20, s.descriptors(),
            s.collections(), s.serverClients(), s.messages(), s.dropped(), s.httpResponses());
    }

    private String markdown(final SoakSample first, final SoakSample last, final List<String> failures,
        final SoakTally tally, final Duration warm, final Instant started)
    {
        final StringBuilder md = new StringBuilder();
        md.append("# Soak, ").append(started).append("\n\n");
        md.append(String.format(Locale.ROOT, "%d WebSocket clients on the ws-feed server (%d replaced a second, " +
            "%.0f%% reading nothing, %d messages a second each), %d keep-alive HTTP clients on http-hello at %d " +
            "requests a second each; %s, warm-up %s. Servers and clients in one process.%n%n", clients, churn,
            slow * 100, rate, httpConnections, httpRate, text(duration), text(warm)));
        if (first != null)
        {
            md.append("| figure | after warm-up | at the end | growth |\n| --- | ---: | ---: | ---: |\n");
            row(md, "resident set (MiB)", first.rss() >> 20, last.rss() >> 20);
            row(md, "heap after GC (MiB)", first.heapAfterGc() >> 20, last.heapAfterGc() >> 20);
            row(md, "open descriptors", first.descriptors(), last.descriptors());
            row(md, "GC count", first.collections(), last.collections());
            row(md, "feed clients on the server", first.serverClients(), last.serverClients());
            row(md, "feed messages read", first.messages(), last.messages());
            row(md, "feed messages dropped (slow clients)", first.dropped(), last.dropped());
            row(md, "HTTP responses", first.httpResponses(), last.httpResponses());
            md.append('\n');
        }
        md.append(String.format(Locale.ROOT, "Connections opened %d, closed by the soak %d, failed %d, slow ones " +
            "closed by the server %d; reading clients lost %d and saw %d out of order; HTTP errors %d.%n%n",
            tally.opened.get(), tally.closedByUs.get(), tally.failed.get(), tally.slowClosed.get(),
            tally.fastLost.get(), tally.outOfOrder.get(), tally.httpErrors.get()));
        md.append(failures.isEmpty() ? "Result: pass.\n" : "Result: FAIL\n\n- " + String.join("\n- ", failures) +
            "\n");
        return md.toString();
    }

    private static void row(final StringBuilder md, final String name, final long first, final long last)
    {
        md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s |%n", name, first, last,
            first > 0 ? String.format(Locale.ROOT, "%+.1f%%", 100.0 * (last - first) / first) : "-"));
    }

    private String json(final List<SoakSample> samples, final SoakSample first, final SoakSample last,
        final List<String> failures, final SoakTally tally, final Duration warm, final Instant started)
    {
        final StringBuilder json = new StringBuilder("{\n");
        json.append("  \"started\": \"").append(started).append("\",\n");
        json.append(String.format(Locale.ROOT, "  \"settings\": {\"durationSeconds\": %d, \"warmupSeconds\": %d, " +
            "\"clients\": %d, \"churnPerSecond\": %d, \"slowFraction\": %s, \"ratePerClient\": %d, " +
            "\"httpConnections\": %d, \"httpRatePerConnection\": %d, \"maxGrowthPercent\": %s},%n",
            duration.toSeconds(), warm.toSeconds(), clients, churn, slow, rate, httpConnections, httpRate,
            maxGrowth));
        json.append("  \"afterWarmup\": ").append(sampleJson(first)).append(",\n");
        json.append("  \"end\": ").append(sampleJson(last)).append(",\n");
        json.append(String.format(Locale.ROOT, "  \"counts\": {\"opened\": %d, \"closedBySoak\": %d, \"failed\": %d, " +
            "\"slowClosedByServer\": %d, \"messages\": %d, \"lost\": %d, \"outOfOrder\": %d, \"httpResponses\": %d, " +
            "\"httpErrors\": %d},%n", tally.opened.get(), tally.closedByUs.get(), tally.failed.get(),
            tally.slowClosed.get(), tally.messages.get(), tally.fastLost.get(), tally.outOfOrder.get(),
            tally.httpResponses.get(), tally.httpErrors.get()));
        json.append("  \"samples\": [");
        for (int i = 0; i < samples.size(); i++)
        {
            json.append(i == 0 ? "\n    " : ",\n    ").append(sampleJson(samples.get(i)));
        }
        json.append("\n  ],\n  \"failures\": [");
        for (int i = 0; i < failures.size(); i++)
        {
            json.append(i == 0 ? "" : ", ").append('"').append(failures.get(i).replace("\"", "'")).append('"');
        }
        json.append("],\n  \"pass\": ").append(failures.isEmpty()).append("\n}\n");
        return json.toString();
    }

    private static String sampleJson(final SoakSample s)
    {
        if (s == null)
        {
            return "null";
        }
        return String.format(Locale.ROOT, "{\"seconds\": %d, \"rssBytes\": %d, \"heapAfterGcBytes\": %d, " +
            "\"descriptors\": %d, \"gcCount\": %d, \"serverClients\": %d, \"messages\": %d, \"dropped\": %d, " +
            "\"httpResponses\": %d}", s.seconds(), s.rss(), s.heapAfterGc(), s.descriptors(), s.collections(),
            s.serverClients(), s.messages(), s.dropped(), s.httpResponses());
    }

    private static String text(final Duration d)
    {
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }

    /** Reads 90s, 30m, 2h, or an ISO-8601 duration. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration>
    {
        @Override
        public Duration convert(final String value)
        {
            final String v = value.trim().toLowerCase(Locale.ROOT);
            if (v.startsWith("p"))
            {
                return Duration.parse(value);
            }
            final long n = Long.parseLong(v.substring(0, v.length() - 1));
            switch (v.charAt(v.length() - 1))
            {
                case 's':
                    return Duration.ofSeconds(n);
                case 'm':
                    return Duration.ofMinutes(n);
                case 'h':
                    return Duration.ofHours(n);
                default:
                    throw new CommandLine.TypeConversionException("a duration is like 90s, 30m or 2h: " + value);
            }
        }
    }
}
