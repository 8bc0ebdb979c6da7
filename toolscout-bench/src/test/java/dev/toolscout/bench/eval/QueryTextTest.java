package dev.toolscout.bench.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the adapted model leaves out of a request before embedding it. */
class QueryTextTest {
    @Test
    void standalone_numbers_are_dropped_with_their_separators() {
        assertThat(QueryText.withoutNumbers("What is 641 plus 719?")).isEqualTo("What is plus ?");
        assertThat(QueryText.withoutNumbers("airports near 48.8567,2.3508 within 2,500 km"))
                .isEqualTo("airports near within km");
        assertThat(QueryText.withoutNumbers("a conception date of 2023-05-20")).isEqualTo("a conception date of - -");
        assertThat(QueryText.withoutNumbers("buy it for $275 today")).isEqualTo("buy it for $ today");
    }

    @Test
    void digits_inside_a_word_stay() {
        String text = "convert the mp3 of tt0121765 over ipv4 to 3D";
        assertThat(QueryText.withoutNumbers(text)).isEqualTo(text);
    }

    @Test
    void a_text_without_numbers_is_returned_as_is() {
        String text = "book a flight to Paris";
        assertThat(QueryText.withoutNumbers(text)).isSameAs(text);
    }

    @Test
    void a_text_that_would_keep_no_letter_is_left_whole() {
        assertThat(QueryText.withoutNumbers("2 + 2")).isEqualTo("2 + 2");
        assertThat(QueryText.withoutNumbers("1234")).isEqualTo("1234");
    }

    @Test
    void null_and_blank_pass_through_for_the_model_to_reject() {
        assertThat(QueryText.withoutNumbers(null)).isNull();
        assertThat(QueryText.withoutNumbers("   ")).isEqualTo("   ");
    }
}
