package dev.toolscout.eval.calibration;

import dev.toolscout.eval.calibration.RouteCalibration.Case;
import dev.toolscout.routing.RouteDecision;
import dev.toolscout.routing.RouteThresholds;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * DIRECT_MEMORY on LoCoMo's conversations (docs/EVALUATION.md, Routes), under two labels: <b>strict</b>, the memory it
 * answers with is one the question's evidence cites (what the thresholds are fitted on), and
 * <b>answer-containing</b>, or one whose text and session date hold half of the gold answer's content words (a memory
 * of the same event from another session). The held-out conversations first, then the calibration ones, then both
 * per question category. Not thread-safe.
 */
final class LocomoReport {
    private static final Map<Integer, String> CATEGORIES =
            Map.of(1, "1 multi-hop", 2, "2 temporal", 3, "3 knowledge", 4, "4 single-hop", 5, "5 adversarial");

    private final PrintWriter out;

    LocomoReport(PrintWriter out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    /**
     * @param fit the cases the thresholds were fitted on (their LoCoMo ones are reported)
     * @param held the held-out LoCoMo cases, never fitted on
     */
    void print(List<Case> fit, List<Case> held, RouteThresholds fitted, RouteThresholds shipped) {
        List<Case> calibration =
                fit.stream().filter(c -> c.source().startsWith("locomo ")).toList();
        out.printf(
                Locale.ROOT,
                "Held-out LoCoMo conversations (%d answerable, %d adversarial questions; never used to fit):%n%n",
                RouteCalibration.count(held, Case::answerable),
                RouteCalibration.count(held, c -> !c.answerable()));
        table(held, fitted, shipped);
        if (!calibration.isEmpty()) {
            out.printf(
                    Locale.ROOT,
                    "Calibration LoCoMo conversations (%d answerable, %d adversarial questions; fitted on):%n%n",
                    RouteCalibration.count(calibration, Case::answerable),
                    RouteCalibration.count(calibration, c -> !c.answerable()));
            table(calibration, fitted, shipped);
        }
        out.println("Per question category, at the shipped thresholds:");
        out.println();
        out.println("| conversations | category | questions | fires | right | right, answer-containing "
                + "| answered rightly |");
        out.println("|---|---|---|---|---|---|---|");
        for (Map.Entry<String, List<Case>> part :
                List.of(Map.entry("held out", held), Map.entry("calibration", calibration))) {
            for (int cat = 0; cat <= 5; cat++) {
                int k = cat;
                List<Case> in =
                        part.getValue().stream().filter(c -> c.category() == k).toList();
                if (in.isEmpty()) {
                    continue;
                }
                Counts n = counts(in, shipped);
                out.printf(
                        Locale.ROOT,
                        "| %s | %s | %d | %d | %d | %d | %s |%n",
                        part.getKey(),
                        CATEGORIES.getOrDefault(cat, "unknown"),
                        in.size(),
                        n.fired,
                        n.right,
                        n.answerRight,
                        RouteCalibration.pct(n.answerable == 0 ? Double.NaN : (double) n.right / n.answerable));
            }
        }
        out.println();
    }

    private void table(List<Case> cases, RouteThresholds fitted, RouteThresholds shipped) {
        out.println("| thresholds | direct_memory | fires | right when it fires | fires on adversarial "
                + "| answers answerable rightly | right when it fires, answer-containing "
                + "| answers rightly, answer-containing |");
        out.println("|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, RouteThresholds> t :
                List.of(Map.entry("fitted", fitted), Map.entry("shipped", shipped))) {
            Counts n = counts(cases, t.getValue());
            out.printf(
                    Locale.ROOT,
                    "| %s | %s | %d | %s (%d) | %s (%d of %d) | %s (%d of %d) | %s (%d) | %s (%d of %d) |%n",
                    t.getKey(),
                    RouteCalibration.th(t.getValue(), "DIRECT_MEMORY"),
                    n.fired,
                    RouteCalibration.pct(share(n.right, n.fired)),
                    n.right,
                    RouteCalibration.pct(share(n.adversarialFired, n.adversarial)),
                    n.adversarialFired,
                    n.adversarial,
                    RouteCalibration.pct(share(n.right, n.answerable)),
                    n.right,
                    n.answerable,
                    RouteCalibration.pct(share(n.answerRight, n.fired)),
                    n.answerRight,
                    RouteCalibration.pct(share(n.answerRight, n.answerable)),
                    n.answerRight,
                    n.answerable);
        }
        out.println();
    }

    private static final class Counts {
        int fired;
        int right;
        int answerRight;
        int answerable;
        int adversarial;
        int adversarialFired;
    }

    private static Counts counts(List<Case> cases, RouteThresholds t) {
        Counts n = new Counts();
        for (Case c : cases) {
            RouteDecision.Evidence e =
                    RouteCalibration.routeOf(c, t).equals("DIRECT_MEMORY") ? c.answer(t.directMemory()) : null;
            n.answerable += c.answerable() ? 1 : 0;
            n.adversarial += c.answerable() ? 0 : 1;
            if (e == null) {
                continue;
            }
            n.fired++;
            n.adversarialFired += c.answerable() ? 0 : 1;
            boolean strict = c.rightMemories().contains(e.name());
            n.right += strict ? 1 : 0;
            n.answerRight += c.answerable() && (strict || c.answerMemories().contains(e.name())) ? 1 : 0;
        }
        return n;
    }

    private static double share(int part, int whole) {
        return whole == 0 ? Double.NaN : (double) part / whole;
    }
}
