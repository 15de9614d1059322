package io.celer.tls;

import java.util.Locale;

import io.celer.counters.Counter;
import io.celer.counters.CounterScope;

/**
 * The TLS alert counters of one reactor, shared by its connections; written on its thread, and only as
 * connections close or fail, never per record.
 */
final class TlsCounters
{
    private static final String RECEIVED_FATAL = "Received fatal alert: ";

    private final CounterScope scope;
    final Counter closeNotifySent;
    final Counter fatalSent;
    final Counter closeNotifyReceived;

    private TlsCounters(final CounterScope scope)
    {
        this.scope = scope;
        closeNotifySent = scope.total("tls.alerts.sent", "alert=close_notify");
        fatalSent = scope.total("tls.alerts.sent", "alert=fatal");
        closeNotifyReceived = scope.total("tls.alerts.received", "alert=close_notify");
    }

    /** The counters of a reactor's TLS connections. */
    static TlsCounters of(final CounterScope scope)
    {
        return scope.group(TlsCounters.class, TlsCounters::new);
    }

    /**
     * Counts the peer's fatal alert behind an engine's failure, by the alert's name (a TLS registry name, so
     * the counters stay few); other failures were found here and are not the peer's alerts.
     *
     * @param failure what the engine threw.
     */
    void failed(final Exception failure)
    {
        // "Received fatal alert: NAME" on JDK 17, "(NAME) Received fatal alert: NAME" on later JDKs.
        final String message = failure.getMessage();
        final int at = message == null ? -1 : message.indexOf(RECEIVED_FATAL);
        if (at < 0)
        {
            return;
        }
        String alert = message.substring(at + RECEIVED_FATAL.length()).trim().toLowerCase(Locale.ROOT);
        if (alert.isEmpty() || alert.length() > 40 || !alert.chars().allMatch(c -> c == '_' || (c >= 'a' && c <= 'z')))
        {
            alert = "other";
        }
        scope.total("tls.alerts.received", "alert=" + alert).increment();
    }
}
