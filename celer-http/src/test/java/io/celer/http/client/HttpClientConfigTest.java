package io.celer.http.client;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import org.junit.jupiter.api.Test;

/**
 * The client's settings refuse values below their floor with a message naming the setting, and take the floor
 * itself.
 */
class HttpClientConfigTest
{
    @Test
    void clientSettingsBelowTheirFloorAreRefused()
    {
        final HttpClientConfig config = new HttpClientConfig();
        assertThatIllegalArgumentException().isThrownBy(() -> config.maxPipelineDepth(0))
            .withMessage("maxPipelineDepth must be at least 1: 0");
        assertThatIllegalArgumentException().isThrownBy(() -> config.responseTimeoutMillis(-5))
            .withMessage("responseTimeoutMillis must be positive: -5");
        assertThatNoException().isThrownBy(() -> config.maxPipelineDepth(1).responseTimeoutMillis(1));
    }
}
