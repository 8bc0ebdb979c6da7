package dev.toolscout.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.memory.MemoryIntent;
import dev.toolscout.routing.RouteDecision.Evidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The router's direct-memory rule ({@link VectorRouter#directMemory}), on evidence written here: no model. */
class DirectMemoryTest {
    private static final double THRESHOLD = 0.70;

    private static Evidence memory(String id, double cosine, String text) {
        return new Evidence(RouteDecision.Kind.MEMORY, id, cosine, false, text);
    }

    private static Evidence answer(String question, Evidence... memories) {
        return VectorRouter.directMemory(MemoryIntent.of(question), question, List.of(memories), THRESHOLD);
    }

    @Test
    void a_near_memory_about_another_subject_is_no_rival() {
        Evidence wife = memory("m1", 0.80, "My wife's birthday is on May 3.");
        // 0.02 behind, but about the user's own birthday: it cannot be the answer, so it does not block it
        Evidence mine = memory("m2", 0.78, "My birthday is on June 1.");
        assertThat(answer("When is my wife's birthday?", wife, mine)).isEqualTo(wife);
    }

    @Test
    void a_rival_about_the_same_subject_within_the_margin_leaves_it_to_the_model() {
        Evidence may = memory("m1", 0.80, "My wife's birthday is on May 3.");
        Evidence party = memory("m2", 0.75, "My wife's birthday party is on May 5 at home.");
        assertThat(answer("When is my wife's birthday?", may, party)).isNull();
        Evidence far = memory("m2", 0.80 - VectorRouter.MEMORY_MARGIN, party.text());
        assertThat(answer("When is my wife's birthday?", may, far)).isEqualTo(may);
    }

    @Test
    void the_answering_memory_may_follow_nearer_ones_about_other_subjects() {
        Evidence cat = memory("m1", 0.82, "My cat is called Tom.");
        Evidence dog = memory("m2", 0.76, "My dog is called Rex.");
        assertThat(answer("What is my dog's name?", cat, dog)).isEqualTo(dog);
    }

    @Test
    void nothing_under_the_threshold_and_no_guess_is_answered() {
        Evidence dog = memory("m1", 0.69, "My dog is called Rex.");
        assertThat(answer("What is my dog's name?", dog)).isNull();
        Evidence degree = memory("m1", 0.90, "John finished his degree in May.");
        assertThat(answer("What might John's degree be in?", degree)).isNull();
        assertThat(answer("Remember that my dog is called Rex", memory("m1", 0.95, "My dog is called Rex.")))
                .isNull();
    }
}
