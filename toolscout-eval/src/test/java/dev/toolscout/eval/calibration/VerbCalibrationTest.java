package dev.toolscout.eval.calibration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.SourceKind;
import dev.toolscout.verbs.VerbCandidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The calibration's arithmetic: which threshold a rule gets, and from which cases. */
class VerbCalibrationTest {
    /** A case whose one considered candidate has this confidence and is right or wrong. */
    private static VerbCalibration.Case one(String source, double confidence, boolean right) {
        VerbCandidate c = new VerbCandidate("t__x", SourceKind.MCP, "d", confidence, 1, 1, 1);
        return new VerbCalibration.Case(
                source,
                VerbCalibration.Kind.PRESENT,
                null,
                List.of(c),
                List.of(new VerbCalibration.Parts("t__x", confidence, confidence, Double.NaN)),
                right ? Set.of("t__x") : Set.of("t__y"));
    }

    @Test
    void the_threshold_is_the_higher_of_the_requests_and_the_equivalent_tools_own() {
        List<VerbCalibration.Case> cases = new ArrayList<>();
        // requests: right down to 0.70, wrong at 0.69
        cases.add(one("seal-tools dev", 0.90, true));
        cases.add(one("seal-tools dev", 0.70, true));
        cases.add(one("seal-tools dev", 0.69, false));
        // equivalent tools: wrong at 0.85, so 95% only above it
        cases.add(one(VerbCalibration.EQUIVALENTS, 0.95, true));
        cases.add(one(VerbCalibration.EQUIVALENTS, 0.85, false));
        cases.add(one(VerbCalibration.EQUIVALENTS, 0.80, true));
        VerbCalibration.Rule product = VerbCalibration.RULES.get(0);

        assertThat(VerbCalibration.threshold(cases.subList(0, 3), product, 0.95))
                .isEqualTo(0.70);
        assertThat(VerbCalibration.threshold(cases.subList(3, 6), product, 0.95))
                .isEqualTo(0.95);
        assertThat(VerbCalibration.calibrated(cases, product)).isEqualTo(0.95);
        // the held-out half never sets it
        cases.add(one(VerbCalibration.EQUIVALENTS + " (held out)", 0.99, false));
        assertThat(VerbCalibration.calibrated(cases.subList(0, 6), product)).isEqualTo(0.95);
    }

    @Test
    void sets_are_chosen_by_label_prefix_and_an_unknown_prefix_is_named() {
        assertThat(VerbCalibration.sets(null)).isEqualTo(VerbCalibration.SETS);
        assertThat(VerbCalibration.sets("etom, TOOLRET A"))
                .extracting(VerbCalibration.DevSet::label)
                .containsExactly("etom level 1", "etom level 2", "toolret apibank", "toolret apigen");
        assertThatThrownBy(() -> VerbCalibration.sets("etom,nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--sets: 'nope' starts no development set's label (labels: metatool single,");
    }
}
