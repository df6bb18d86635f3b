package dev.baton.application.service.worker;

import static dev.baton.application.service.worker.DeliveryState.HELD;
import static dev.baton.application.service.worker.DeliveryState.LEASE_LOST;
import static dev.baton.application.service.worker.DeliveryState.LOST_PAST_DEADLINE;
import static dev.baton.application.service.worker.DeliveryState.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeliveryStateTest {

    @ParameterizedTest
    @CsvSource({
            // state,            at deadline,        lease lost,         abandoned,  finishing
            "HELD,               TIMED_OUT,          LEASE_LOST,         ABANDONED,  FINISHING",
            "TIMED_OUT,          TIMED_OUT,          LOST_PAST_DEADLINE, ABANDONED,  FINISHING",
            "LEASE_LOST,         LOST_PAST_DEADLINE, LEASE_LOST,         ABANDONED,  LEASE_LOST",
            "LOST_PAST_DEADLINE, LOST_PAST_DEADLINE, LOST_PAST_DEADLINE, ABANDONED,  LOST_PAST_DEADLINE",
            "ABANDONED,          ABANDONED,          ABANDONED,          ABANDONED,  ABANDONED",
            "FINISHING,          FINISHING,          FINISHING,          FINISHING,  FINISHING"})
    void eachEventMovesTheStateAsTheTableSays(DeliveryState state, DeliveryState atDeadline, DeliveryState lost,
                                             DeliveryState abandoned, DeliveryState finishing) {
        assertThat(state.atDeadline()).isEqualTo(atDeadline);
        assertThat(state.leaseLost()).isEqualTo(lost);
        assertThat(state.abandoned()).isEqualTo(abandoned);
        assertThat(state.finishing()).isEqualTo(finishing);
    }

    @Test
    void aDeadlineStopsTheEffectAndALostLeaseStopsTheOutcome() {
        assertThat(EnumSet.allOf(DeliveryState.class)).filteredOn(DeliveryState::mayRunEffect)
                .containsExactlyInAnyOrder(HELD, LEASE_LOST);
        assertThat(EnumSet.allOf(DeliveryState.class)).filteredOn(DeliveryState::mayFinish)
                .containsExactlyInAnyOrder(HELD, TIMED_OUT);
        assertThat(EnumSet.allOf(DeliveryState.class)).filteredOn(DeliveryState::isPastDeadline)
                .containsExactlyInAnyOrder(TIMED_OUT, LOST_PAST_DEADLINE);
    }
}
