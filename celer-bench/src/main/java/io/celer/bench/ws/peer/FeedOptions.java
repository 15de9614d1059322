package io.celer.bench.ws.peer;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/**
 * The WebSocket peers' feed options.
 */
public final class FeedOptions
{
    /** Each client socket's SO_SNDBUF by default, on every peer. */
    public static final int DEFAULT_SEND_BUFFER = 256 * 1024;

    @Option(names = "--rate", defaultValue = "100", description = "Messages a second to each client on /feed.")
    int rate;

    @Option(names = "--size", defaultValue = "250", description = "Bytes a message is padded to.")
    int size;

    @Option(names = "--backpressure", defaultValue = "on",
        description = "on: drop a client's messages while its connection is not writable; off: write anyway.")
    String backpressure;

    @Option(names = "--tick-ms", defaultValue = "1", description = "Period of the timer that sends what is due.")
    int tickMillis;

    @Option(names = "--send-buffer", defaultValue = "" + DEFAULT_SEND_BUFFER,
        description = "Each client socket's kernel send buffer (SO_SNDBUF), the same for every peer, so that none "
            + "holds a slow client's backlog in an autotuned kernel buffer of up to tcp_wmem's maximum while another "
            + "bounds it; 0 leaves the kernel's autotuning on.")
    int sendBuffer;

    @Option(names = "--per-second", defaultValue = "true", arity = "1",
        description = "Print a 'feed second=...' line of counts each second while clients are connected.")
    boolean perSecond;

    @Option(names = "--samples", description = "A file to append a line to each second: heap used, RSS, "
        + "collections and clients.")
    Path samples;

    @Option(names = "--rss-cap-mb", defaultValue = "0",
        description = "Exit once the process's resident set passes this many MiB (0: no cap).")
    long rssCapMb;

    @Option(names = "--exit-when-idle", defaultValue = "false", arity = "0..1",
        description = "Exit once clients came and all left: a run's end without the harness saying stop.")
    boolean exitWhenIdle;

    /**
     * Whether slow clients' messages are dropped.
     *
     * @return true for {@code --backpressure=on}.
     */
    public boolean dropWhenUnwritable()
    {
        if (!backpressure.equals("on") && !backpressure.equals("off"))
        {
            throw new IllegalArgumentException("--backpressure is on or off, not " + backpressure);
        }
        return backpressure.equals("on");
    }
}
