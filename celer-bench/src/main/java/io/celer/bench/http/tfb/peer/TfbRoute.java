package io.celer.bench.http.tfb.peer;

import java.nio.charset.StandardCharsets;

/**
 * The two TechEmpower routes the benchmarks load, and what a right answer to each is.
 */
public enum TfbRoute
{
    /** {@code GET /plaintext}: {@code Hello, World!} as text/plain. */
    PLAINTEXT("/plaintext", "Hello, World!", "text/plain"),
    /** {@code GET /json}: the object {@code {"message":"Hello, World!"}}, serialized per request. */
    JSON("/json", "{\"message\":\"Hello, World!\"}", "application/json");

    private final String path;
    private final String body;
    private final String contentType;

    TfbRoute(final String path, final String body, final String contentType)
    {
        this.path = path;
        this.body = body;
        this.contentType = contentType;
    }

    /** @return the request target, such as {@code /json}. */
    public String path()
    {
        return path;
    }

    /** @return the exact body a right answer carries. */
    public String body()
    {
        return body;
    }

    /** @return the Content-Type a right answer carries. */
    public String contentType()
    {
        return contentType;
    }

    /** @return a check of this route's answers. */
    public ResponseCheck check()
    {
        return new ResponseCheck(body.getBytes(StandardCharsets.US_ASCII), contentType);
    }

    /**
     * The request as TechEmpower's load generator sends it: a keep-alive GET with a browser-like Accept.
     *
     * @return the request's bytes.
     */
    public byte[] request()
    {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain,text/html;q=0.9,"
            + "application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7\r\nConnection: keep-alive\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    }
}
