package io.celer.http.server;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import org.junit.jupiter.api.Test;

/**
 * The server's settings refuse values below their floor with a message naming the setting, and take the floor
 * itself.
 */
class HttpServerConfigTest
{
    @Test
    void serverSettingsBelowTheirFloorAreRefused()
    {
        final HttpServerConfig config = new HttpServerConfig();
        assertThatIllegalArgumentException().isThrownBy(() -> config.maxRequestLineLength(15))
            .withMessage("maxRequestLineLength must be at least 16: 15");
        assertThatIllegalArgumentException().isThrownBy(() -> config.maxHeldBodySize(-1))
            .withMessage("maxHeldBodySize must be at least 0: -1");
        assertThatIllegalArgumentException().isThrownBy(() -> config.idleTimeoutMillis(0))
            .withMessage("idleTimeoutMillis must be positive: 0");
        assertThatNoException().isThrownBy(() -> config.maxRequestLineLength(16).maxHeldBodySize(0).idleTimeoutMillis(1));
    }
}
