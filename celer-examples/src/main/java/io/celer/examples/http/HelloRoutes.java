package io.celer.examples.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.celer.http.AsciiView;
import io.celer.http.HeaderField;
import io.celer.http.server.HttpRequest;
import io.celer.http.server.HttpResponse;
import io.celer.http.server.HttpServerConfig;
import io.celer.http.server.Router;
import io.celer.tcp.TcpConfig;

/**
 * The {@code http-hello} server's routes, TechEmpower's style: {@code GET /plaintext}, {@code GET /json} and
 * {@code POST /echo}; anything else is 404 (405 for another method on these paths), and a bad request gets the
 * server's own status.
 *
 * <p>Garbage-free on the reactor: the bodies and the fields sent with them are encoded once, here, and an echoed
 * body goes from the read buffer to the response without a copy of its own. One instance serves one reactor.
 */
public final class HelloRoutes
{
    /** The plaintext body. */
    public static final byte[] HELLO = ascii("Hello, World!");
    /** The JSON body. */
    public static final byte[] JSON = ascii("{\"message\":\"Hello, World!\"}");
    private static final HeaderField TEXT_PLAIN = HeaderField.of("Content-Type", "text/plain");
    private static final HeaderField APPLICATION_JSON = HeaderField.of("Content-Type", "application/json");
    /** The content type of an echoed body whose request named none. */
    static final String OCTET_STREAM = "application/octet-stream";

    /** Largest body echoed: a streamed echo holds no more than a read at a time, whatever its length. */
    public static final long MAX_BODY = 64L * 1024 * 1024;

    private static final int READ_BUFFER = 64 * 1024;

    private final List<EchoStream> streams = new ArrayList<>();

    /**
     * The server's settings on top of the command line's TCP ones: large bodies are streamed back, and the
     * responses hold twice a read, so a read's echo always fits.
     *
     * @param tcp where to listen, TLS.
     * @return the settings.
     */
    public static HttpServerConfig config(final TcpConfig tcp)
    {
        return new HttpServerConfig().tcp(tcp)
            .readBufferSize(READ_BUFFER)
            .maxBodySize(MAX_BODY)
            .responseBufferSize(2 * READ_BUFFER);
    }

    /**
     * The routes.
     *
     * @return a router for one server.
     */
    public Router router()
    {
        return Router.builder()
            .get("/plaintext", HelloRoutes::plaintext)
            .get("/json", HelloRoutes::json)
            .post("/echo", this::echo)
            .build();
    }

    private static void plaintext(final HttpRequest request, final HttpResponse response)
    {
        response.header(TEXT_PLAIN).body(HELLO);
    }

    private static void json(final HttpRequest request, final HttpResponse response)
    {
        response.header(APPLICATION_JSON).body(JSON);
    }

    private void echo(final HttpRequest request, final HttpResponse response)
    {
        final AsciiView contentType = request.header("Content-Type");
        if (request.isBodyComplete())
        {
            response.header("Content-Type", contentType != null ? contentType : OCTET_STREAM).body(request.body());
            return;
        }
        freeStream().start(request, response, contentType);
    }

    /**
     * How many times streamed echoes held bytes their response refused; reactor thread only.
     *
     * @return the count over every stream.
     */
    long echoHolds()
    {
        long holds = 0;
        for (int i = 0; i < streams.size(); i++)
        {
            holds += streams.get(i).holds();
        }
        return holds;
    }

    /** A free stream; a new one only when more large uploads run at once than ever before. */
    private EchoStream freeStream()
    {
        for (int i = 0; i < streams.size(); i++)
        {
            final EchoStream stream = streams.get(i);
            if (stream.isFree())
            {
                return stream;
            }
        }
        final EchoStream stream = new EchoStream(READ_BUFFER);
        streams.add(stream);
        return stream;
    }

    private static byte[] ascii(final String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
