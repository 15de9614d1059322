package io.celer.http.client;

import java.util.ArrayDeque;
import java.util.Deque;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.celer.http.HttpMethod;
import io.celer.reactor.Reactor;
import io.celer.reactor.ReactorConfig;
import io.celer.test.Reactors;

/**
 * A client test's pieces: reactors, the client, and the servers and peers it talks to, all closed after each test,
 * the last opened first and the reactors last. Register it: {@code @RegisterExtension final ClientRig rig = new
 * ClientRig();}.
 */
final class ClientRig implements AfterEachCallback
{
    private final Reactors reactors = new Reactors();
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private HttpClient client;

    /**
     * Closes a server or peer after the test.
     *
     * @param resource what to close.
     * @param <T>      its type.
     * @return the resource.
     */
    <T extends AutoCloseable> T add(final T resource)
    {
        opened.push(resource);
        return resource;
    }

    /** Starts a reactor, stopped after the test. */
    Reactor reactor(final String name)
    {
        return reactors.start(name);
    }

    /** Starts a reactor of the given settings, stopped after the test. */
    Reactor reactor(final ReactorConfig config)
    {
        return reactors.start(config);
    }

    /** Opens a client on a reactor of its own. */
    HttpClient client(final HttpClientConfig config, final String... hosts)
    {
        return client(reactor("http-client"), config, hosts);
    }

    /** Opens a client on the given reactor; {@link #send} uses the last one opened. */
    HttpClient client(final Reactor reactor, final HttpClientConfig config, final String... hosts)
    {
        client = add(new HttpClient(reactor, config, hosts)).open();
        return client;
    }

    /** Sends one request from the client's reactor thread. */
    void send(final HttpMethod method, final String target, final long tag, final ResponseListener listener)
    {
        final HttpClient sender = client;
        sender.reactor().execute(() -> sender.request(method, target).tag(tag).send(listener));
    }

    /** Sends {@code count} GETs of one target, tagged from 0, in one go from the client's reactor thread. */
    void sendAll(final int count, final String target, final ResponseListener listener)
    {
        final HttpClient sender = client;
        sender.reactor().execute(() ->
        {
            for (int i = 0; i < count; i++)
            {
                sender.request(HttpMethod.GET, target).tag(i).send(listener);
            }
        });
    }

    @Override
    public void afterEach(final ExtensionContext context) throws Exception
    {
        try
        {
            while (!opened.isEmpty())
            {
                opened.pop().close();
            }
        }
        finally
        {
            client = null;
            opened.clear();
            reactors.close();
        }
    }
}
