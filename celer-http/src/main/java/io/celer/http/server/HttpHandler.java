package io.celer.http.server;

/**
 * The application: answers requests, on the reactor thread.
 */
@FunctionalInterface
public interface HttpHandler
{
    /**
     * A request, with its body when {@link HttpRequest#isBodyComplete()}. Answer through the response now or
     * later (from another callback on the reactor thread); later requests' responses wait their turn.
     *
     * @param request  valid only during the call.
     * @param response this request's response; valid until it is complete.
     */
    void handle(HttpRequest request, HttpResponse response);
}
