package io.celer.examples.http;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.celer.examples.cli.ClientOutcome;
import io.celer.examples.cli.ClientTlsOptions;
import io.celer.examples.cli.Foreground;
import io.celer.examples.cli.UsageException;
import io.celer.http.HttpMethod;
import io.celer.http.client.HttpClient;
import io.celer.http.client.HttpClientConfig;
import io.celer.http.client.HttpUrl;
import io.celer.tcp.TcpConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./celer demo http-get URL}: fetches a URL with the Celer {@link HttpClient} and prints the status line
 * and fields, and the body if asked; exits 0 on a 2xx or 3xx answer, 1 otherwise.
 */
@Command(
    name = "http-get",
    description = "fetches an http or https URL with the Celer HTTP client (certificates checked against " +
        "--truststore or the JDK's trust store) and prints the status line and headers; exit 0 on 2xx/3xx",
    footer = {"%nTry: ./celer demo http-hello & ./celer demo http-get --body http://localhost:54321/json"})
public final class HttpGetCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "URL", description = "The http:// or https:// URL to fetch.")
    private String url;

    @Mixin
    private ClientTlsOptions tls;

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "A field to send; repeat for more.")
    private List<String> headers = new ArrayList<>();

    @Option(names = "--body", description = "Print the body too, after an empty line.")
    private boolean body;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "30000",
        description = "How long the whole response may take (default ${DEFAULT-VALUE}).")
    private long timeoutMillis;

    @Mixin
    private Foreground foreground;

    /**
     * Fetches the URL and prints what came.
     *
     * @return the exit code: 0 for a 2xx or 3xx answer, 1 otherwise or on failure.
     * @throws InterruptedException if interrupted while waiting.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        final HttpUrl target;
        try
        {
            target = HttpUrl.parse(url);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new UsageException(ex.getMessage());
        }
        if (tls.enabled() && !target.secure())
        {
            throw new UsageException("an http:// URL is fetched in the clear; for TLS give an https:// URL");
        }
        tls.validate(target.secure());
        if (timeoutMillis < 1)
        {
            throw new UsageException("--timeout-ms must be 1 or more: " + timeoutMillis);
        }
        final String[][] fields = parseHeaders(headers);
        final TcpConfig tcp = tls.apply(new TcpConfig(), target.secure());
        final HttpClientConfig config = new HttpClientConfig().tcp(tcp).connectionsPerHost(1)
            .responseTimeoutMillis(timeoutMillis).connectTimeoutMillis(timeoutMillis);
        final String authority = (target.host().indexOf(':') >= 0 ? "[" + target.host() + "]" : target.host()) +
            ":" + target.port();
        return foreground.run("http-get", (reactor, running) ->
        {
            final HttpClient client = new HttpClient(reactor, config, authority);
            final ClientOutcome outcome = new ClientOutcome();
            final PrintedResponse printed = new PrintedResponse(foreground.out(), body, outcome);
            running.finishWhen(outcome, printed::succeeded, () -> printed.whyNot(url));
            running.onStop(client::close);
            client.open();
            reactor.execute(() ->
            {
                try
                {
                    final var request = client.request(HttpMethod.GET, target.target());
                    for (final String[] field : fields)
                    {
                        request.header(field[0], field[1]);
                    }
                    request.send(printed);
                }
                catch (final IllegalArgumentException | IllegalStateException ex)
                {
                    printed.failed(ex);
                }
            });
        });
    }

    private static String[][] parseHeaders(final List<String> headers)
    {
        final String[][] fields = new String[headers.size()][];
        for (int i = 0; i < fields.length; i++)
        {
            final String header = headers.get(i);
            final int colon = header.indexOf(':');
            if (colon <= 0)
            {
                throw new UsageException("--header takes 'Name: value': " + header);
            }
            fields[i] = new String[] {header.substring(0, colon).trim(), header.substring(colon + 1).trim()};
        }
        return fields;
    }
}
