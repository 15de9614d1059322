package io.celer.http;

/**
 * Status codes the server sends itself, and the reason phrase of every code.
 */
public final class HttpStatus
{
    /** 100 Continue. */
    public static final int CONTINUE = 100;
    /** 101 Switching Protocols. */
    public static final int SWITCHING_PROTOCOLS = 101;
    /** 200 OK. */
    public static final int OK = 200;
    /** 204 No Content. */
    public static final int NO_CONTENT = 204;
    /** 304 Not Modified. */
    public static final int NOT_MODIFIED = 304;
    /** 400 Bad Request. */
    public static final int BAD_REQUEST = 400;
    /** 404 Not Found. */
    public static final int NOT_FOUND = 404;
    /** 405 Method Not Allowed. */
    public static final int METHOD_NOT_ALLOWED = 405;
    /** 408 Request Timeout. */
    public static final int REQUEST_TIMEOUT = 408;
    /** 413 Content Too Large. */
    public static final int CONTENT_TOO_LARGE = 413;
    /** 414 URI Too Long. */
    public static final int URI_TOO_LONG = 414;
    /** 417 Expectation Failed. */
    public static final int EXPECTATION_FAILED = 417;
    /** 431 Request Header Fields Too Large. */
    public static final int HEADER_FIELDS_TOO_LARGE = 431;
    /** 500 Internal Server Error. */
    public static final int INTERNAL_SERVER_ERROR = 500;
    /** 501 Not Implemented. */
    public static final int NOT_IMPLEMENTED = 501;
    /** 503 Service Unavailable. */
    public static final int SERVICE_UNAVAILABLE = 503;
    /** 505 HTTP Version Not Supported. */
    public static final int VERSION_NOT_SUPPORTED = 505;

    private HttpStatus()
    {
    }

    /**
     * The reason phrase of a code.
     *
     * @param code the code.
     * @return the phrase, empty for codes without one.
     */
    public static String reason(final int code)
    {
        switch (code)
        {
            case 100: return "Continue";
            case 101: return "Switching Protocols";
            case 200: return "OK";
            case 201: return "Created";
            case 202: return "Accepted";
            case 204: return "No Content";
            case 206: return "Partial Content";
            case 301: return "Moved Permanently";
            case 302: return "Found";
            case 303: return "See Other";
            case 304: return "Not Modified";
            case 307: return "Temporary Redirect";
            case 308: return "Permanent Redirect";
            case 400: return "Bad Request";
            case 401: return "Unauthorized";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 408: return "Request Timeout";
            case 409: return "Conflict";
            case 411: return "Length Required";
            case 413: return "Content Too Large";
            case 414: return "URI Too Long";
            case 415: return "Unsupported Media Type";
            case 417: return "Expectation Failed";
            case 426: return "Upgrade Required";
            case 429: return "Too Many Requests";
            case 431: return "Request Header Fields Too Large";
            case 500: return "Internal Server Error";
            case 501: return "Not Implemented";
            case 502: return "Bad Gateway";
            case 503: return "Service Unavailable";
            case 504: return "Gateway Timeout";
            case 505: return "HTTP Version Not Supported";
            default: return "";
        }
    }
}
