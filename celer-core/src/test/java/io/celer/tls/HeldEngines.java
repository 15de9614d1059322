package io.celer.tls;

import java.nio.ByteBuffer;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.List;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * An SSL context over a real one whose engines can be held at one point of a handshake until a test lets them
 * go: their creation, or the unwrap of the peer's second flight (a client's Finished, which the JDK handles
 * inside {@code unwrap}, session ticket included, not as a delegated task). It notes the thread that was held.
 * Or it fails an engine's creation.
 */
final class HeldEngines
{
    private static final long HOLD_MILLIS = 30_000;

    /** Where an engine can be held. */
    enum Point
    {
        /** In {@code SSLContext.createSSLEngine}. */
        CREATION,
        /** In the first {@code unwrap} after the engine wrapped its first flight. */
        SECOND_FLIGHT_UNWRAP
    }

    private final SSLContext real;
    private final AtomicBoolean armed = new AtomicBoolean();
    private volatile Point point;
    /** Counted down when a thread is held. */
    final CountDownLatch holding = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicReference<Thread> held = new AtomicReference<>();

    HeldEngines(final SSLContext real)
    {
        this.real = real;
    }

    /**
     * Holds the next engine made at this point, once.
     */
    void arm(final Point at)
    {
        point = at;
        armed.set(true);
    }

    /**
     * Makes the next engine's creation throw, once.
     */
    void failNextCreation()
    {
        point = null;
        armed.set(true);
    }

    private void holdIf(final Point at)
    {
        if (at == Point.CREATION && point == null && armed.compareAndSet(true, false))
        {
            throw new IllegalStateException("no engine today");
        }
        if (point == at && armed.compareAndSet(true, false))
        {
            held.set(Thread.currentThread());
            holding.countDown();
            try
            {
                release.await(HOLD_MILLIS, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The context whose engines may be held.
     */
    SSLContext context()
    {
        final SSLContextSpi spi = new SSLContextSpi()
        {
            @Override
            protected void engineInit(final KeyManager[] km, final TrustManager[] tm, final SecureRandom sr)
                throws KeyManagementException
            {
                real.init(km, tm, sr);
            }

            @Override
            protected SSLSocketFactory engineGetSocketFactory()
            {
                return real.getSocketFactory();
            }

            @Override
            protected SSLServerSocketFactory engineGetServerSocketFactory()
            {
                return real.getServerSocketFactory();
            }

            @Override
            protected SSLEngine engineCreateSSLEngine()
            {
                holdIf(Point.CREATION);
                return new Engine(real.createSSLEngine());
            }

            @Override
            protected SSLEngine engineCreateSSLEngine(final String host, final int port)
            {
                holdIf(Point.CREATION);
                return new Engine(real.createSSLEngine(host, port));
            }

            @Override
            protected SSLSessionContext engineGetServerSessionContext()
            {
                return real.getServerSessionContext();
            }

            @Override
            protected SSLSessionContext engineGetClientSessionContext()
            {
                return real.getClientSessionContext();
            }

            @Override
            protected SSLParameters engineGetDefaultSSLParameters()
            {
                return real.getDefaultSSLParameters();
            }

            @Override
            protected SSLParameters engineGetSupportedSSLParameters()
            {
                return real.getSupportedSSLParameters();
            }
        };
        return new SSLContext(spi, real.getProvider(), real.getProtocol())
        {
        };
    }

    /** An engine that passes every call to a real one, and may hold the unwrap of the peer's second flight. */
    private final class Engine extends SSLEngine
    {
        private final SSLEngine engine;
        private boolean wrapped;

        Engine(final SSLEngine engine)
        {
            super(engine.getPeerHost(), engine.getPeerPort());
            this.engine = engine;
        }

        @Override
        public SSLEngineResult wrap(final ByteBuffer[] srcs, final int offset, final int length, final ByteBuffer dst)
            throws SSLException
        {
            final SSLEngineResult result = engine.wrap(srcs, offset, length, dst);
            wrapped |= result.bytesProduced() > 0;
            return result;
        }

        @Override
        public SSLEngineResult unwrap(final ByteBuffer src, final ByteBuffer[] dsts, final int offset,
            final int length) throws SSLException
        {
            if (wrapped && engine.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING)
            {
                holdIf(Point.SECOND_FLIGHT_UNWRAP);
            }
            return engine.unwrap(src, dsts, offset, length);
        }

        @Override
        public Runnable getDelegatedTask()
        {
            return engine.getDelegatedTask();
        }

        @Override
        public void closeInbound() throws SSLException
        {
            engine.closeInbound();
        }

        @Override
        public boolean isInboundDone()
        {
            return engine.isInboundDone();
        }

        @Override
        public void closeOutbound()
        {
            engine.closeOutbound();
        }

        @Override
        public boolean isOutboundDone()
        {
            return engine.isOutboundDone();
        }

        @Override
        public String[] getSupportedCipherSuites()
        {
            return engine.getSupportedCipherSuites();
        }

        @Override
        public String[] getEnabledCipherSuites()
        {
            return engine.getEnabledCipherSuites();
        }

        @Override
        public void setEnabledCipherSuites(final String[] suites)
        {
            engine.setEnabledCipherSuites(suites);
        }

        @Override
        public String[] getSupportedProtocols()
        {
            return engine.getSupportedProtocols();
        }

        @Override
        public String[] getEnabledProtocols()
        {
            return engine.getEnabledProtocols();
        }

        @Override
        public void setEnabledProtocols(final String[] protocols)
        {
            engine.setEnabledProtocols(protocols);
        }

        @Override
        public SSLSession getSession()
        {
            return engine.getSession();
        }

        @Override
        public SSLSession getHandshakeSession()
        {
            return engine.getHandshakeSession();
        }

        @Override
        public void beginHandshake() throws SSLException
        {
            engine.beginHandshake();
        }

        @Override
        public SSLEngineResult.HandshakeStatus getHandshakeStatus()
        {
            return engine.getHandshakeStatus();
        }

        @Override
        public void setUseClientMode(final boolean mode)
        {
            engine.setUseClientMode(mode);
        }

        @Override
        public boolean getUseClientMode()
        {
            return engine.getUseClientMode();
        }

        @Override
        public void setNeedClientAuth(final boolean need)
        {
            engine.setNeedClientAuth(need);
        }

        @Override
        public boolean getNeedClientAuth()
        {
            return engine.getNeedClientAuth();
        }

        @Override
        public void setWantClientAuth(final boolean want)
        {
            engine.setWantClientAuth(want);
        }

        @Override
        public boolean getWantClientAuth()
        {
            return engine.getWantClientAuth();
        }

        @Override
        public void setEnableSessionCreation(final boolean flag)
        {
            engine.setEnableSessionCreation(flag);
        }

        @Override
        public boolean getEnableSessionCreation()
        {
            return engine.getEnableSessionCreation();
        }

        @Override
        public SSLParameters getSSLParameters()
        {
            return engine.getSSLParameters();
        }

        @Override
        public void setSSLParameters(final SSLParameters parameters)
        {
            engine.setSSLParameters(parameters);
        }

        @Override
        public String getApplicationProtocol()
        {
            return engine.getApplicationProtocol();
        }

        @Override
        public String getHandshakeApplicationProtocol()
        {
            return engine.getHandshakeApplicationProtocol();
        }

        @Override
        public void setHandshakeApplicationProtocolSelector(final BiFunction<SSLEngine, List<String>, String> selector)
        {
            engine.setHandshakeApplicationProtocolSelector(selector);
        }

        @Override
        public BiFunction<SSLEngine, List<String>, String> getHandshakeApplicationProtocolSelector()
        {
            return engine.getHandshakeApplicationProtocolSelector();
        }
    }
}
