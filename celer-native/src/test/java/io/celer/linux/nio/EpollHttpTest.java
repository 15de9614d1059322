package io.celer.linux.nio;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.ReactorConfig;
import io.celer.tcp.TcpConfig;
import io.celer.test.Reactors;

/**
 * Celer's HTTP server on the epoll provider answers the JDK's HTTP client, over kept-alive connections and new
 * ones: the layers above the transport need nothing of it.
 */
class EpollHttpTest
{
    @RegisterExtension
    final Reactors reactors = new Reactors();

    @Test
    void theHttpServerOnEpollAnswersTheJdksClient() throws Exception
    {
        final HttpServer server = new HttpServer(reactors.start(new ReactorConfig().name("epoll-http")
            .selectorProvider(EpollSelectorProvider.INSTANCE)), 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")),
            Router.builder().get("/hello", (request, response) -> response.status(200).body("hello")).build())
            .open();
        try
        {
            for (int client = 0; client < 3; client++)
            {
                final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30)).build();
                for (int i = 0; i < 50; i++)
                {
                    final HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/hello")).timeout(Duration.ofSeconds(30))
                        .build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(response.statusCode()).isEqualTo(200);
                    assertThat(response.body()).isEqualTo("hello");
                }
                final HttpResponse<String> missing = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/nothing")).build(),
                    HttpResponse.BodyHandlers.ofString());
                assertThat(missing.statusCode()).isEqualTo(404);
            }
        }
        finally
        {
            server.close();
        }
    }
}
