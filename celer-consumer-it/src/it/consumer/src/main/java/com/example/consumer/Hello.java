package com.example.consumer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.celer.http.server.HttpServer;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.reactor.Reactor;
import io.celer.tcp.TcpConfig;

/**
 * The README's HTTP sample in an application of its own: serves GET /hello, asks itself for it once, prints the
 * answer and stops.
 */
public final class Hello
{
    private Hello()
    {
    }

    /**
     * Runs the server and the request.
     *
     * @param args none
     * @throws Exception when the answer is not the expected one, or the request fails
     */
    public static void main(final String[] args) throws Exception
    {
        final Reactor reactor = Reactor.create();
        final Router routes = Router.builder()
            .get("/hello", (request, response) -> response.header("Content-Type", "text/plain").body("hello"))
            .build();
        // Port 0 and the loopback address: the test may run beside other builds.
        final HttpServer server = new HttpServer(reactor, 0,
            new HttpServerConfig().tcp(new TcpConfig().bindAddress("127.0.0.1")), routes).open();
        reactor.start();
        try
        {
            final HttpResponse<String> answer = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/hello"))
                    .timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
            System.out.println("GET /hello: " + answer.statusCode() + " " + answer.body() + " (Java "
                + Runtime.version() + ")");
            if (answer.statusCode() != 200 || !answer.body().equals("hello"))
            {
                throw new IllegalStateException("expected 200 hello");
            }
        }
        finally
        {
            reactor.close();
        }
    }
}
