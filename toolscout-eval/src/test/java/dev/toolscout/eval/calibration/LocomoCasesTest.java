package dev.toolscout.eval.calibration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The looser LoCoMo label: a memory holds a question's answer (the set README's rough check). */
class LocomoCasesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode memory(String text, String date) {
        return JSON.createObjectNode().put("text", text).put("session_date", date);
    }

    @Test
    void half_of_the_answers_content_words_in_the_text_or_the_session_date_hold_it() {
        JsonNode m = memory("Caroline attended an LGBTQ support group recently.", "1:56 pm on 8 May, 2023");
        // "7 May 2023": "may" and "2023" from the date, two of three
        assertThat(LocomoCases.holdsAnswer(JSON.getNodeFactory().textNode("7 May 2023"), m))
                .isTrue();
        assertThat(LocomoCases.holdsAnswer(JSON.getNodeFactory().textNode("the LGBTQ support group"), m))
                .isTrue();
        // one content word of three
        assertThat(LocomoCases.holdsAnswer(JSON.getNodeFactory().textNode("a support class in June"), m))
                .isFalse();
        // no gold answer (an adversarial question), or one of function words only
        assertThat(LocomoCases.holdsAnswer(JSON.getNodeFactory().nullNode(), m)).isFalse();
        assertThat(LocomoCases.holdsAnswer(JSON.getNodeFactory().textNode("the"), m))
                .isFalse();
    }
}
