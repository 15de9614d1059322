package io.celer.bench.conns;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What each held connection did before going idle, and what the fresh client repeats: a scenario every server
 * peer of the HTTP and WebSocket benchmarks serves.
 */
enum Scenario
{
    /** HTTP/1.1 keep-alive after one {@code GET /plaintext}, its answer read. */
    HTTP("http", "HTTP keep-alive after one GET /plaintext"),
    /**
     * WebSocket on {@code /echo} after the upgrade and one text message, its echo read: every WebSocket peer echoes
     * there, where {@code /feed} would keep pushing messages and the connection would not be idle.
     */
    WS("ws", "WebSocket /echo after the upgrade and one echoed message");

    private final String id;
    private final String description;

    Scenario(final String id, final String description)
    {
        this.id = id;
        this.description = description;
    }

    /** @return its name on the command line and in results. */
    String id()
    {
        return id;
    }

    /** @return what a held connection did. */
    String description()
    {
        return description;
    }

    /**
     * The client's side of it.
     *
     * @param port the server's port, for the Host field.
     * @param size the WebSocket message's bytes.
     * @return a new exchange, for one connection at a time.
     */
    Exchange exchange(final int port, final int size)
    {
        return this == HTTP ? new HttpExchange(port) : new WsExchange(port, size);
    }

    /**
     * Parses a comma-separated list.
     *
     * @param names such as {@code http,ws}.
     * @return the scenarios, in the order given, each once.
     * @throws IllegalArgumentException on an unknown name or none.
     */
    static List<Scenario> parse(final String names)
    {
        final List<Scenario> chosen = new ArrayList<>();
        for (final String name : names.split(","))
        {
            final String wanted = name.trim().toLowerCase(Locale.ROOT);
            if (wanted.isEmpty())
            {
                continue;
            }
            final Scenario found = byId(wanted);
            if (!chosen.contains(found))
            {
                chosen.add(found);
            }
        }
        if (chosen.isEmpty())
        {
            throw new IllegalArgumentException("no scenario named in '" + names + "': http, ws");
        }
        return List.copyOf(chosen);
    }

    /**
     * A scenario by name.
     *
     * @param id {@code http} or {@code ws}.
     * @return the scenario.
     * @throws IllegalArgumentException on another name.
     */
    static Scenario byId(final String id)
    {
        for (final Scenario scenario : values())
        {
            if (scenario.id.equals(id))
            {
                return scenario;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + id + "': http, ws");
    }
}
