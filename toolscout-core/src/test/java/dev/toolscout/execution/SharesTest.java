package dev.toolscout.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SharesTest {
    @Test
    void one_key_takes_up_to_its_cap_and_another_key_still_finds_its_own() {
        Shares<String> shares = new Shares<>(2);

        assertThat(shares.tryTake("alice")).isTrue();
        assertThat(shares.tryTake("alice")).isTrue();
        assertThat(shares.tryTake("alice")).isFalse();
        assertThat(shares.tryTake("bob")).isTrue();
        assertThat(shares.held("alice")).isEqualTo(2);
        assertThat(shares.held("bob")).isEqualTo(1);
    }

    @Test
    void a_release_gives_back_one_and_never_goes_below_zero() {
        Shares<String> shares = new Shares<>(1);
        shares.tryTake("alice");

        shares.release("alice");

        assertThat(shares.held("alice")).isZero();
        assertThat(shares.tryTake("alice")).isTrue();
        shares.release("alice");
        shares.release("alice");
        assertThat(shares.held("alice")).isZero();
    }

    @Test
    void a_cap_below_one_is_refused_naming_the_value() {
        assertThatThrownBy(() -> new Shares<String>(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a share must be at least 1, got: 0");
    }
}
