package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SentencesTest {
    @Test
    void an_abbreviation_inside_the_first_sentence_does_not_end_it() {
        // the demo catalog's gmail__search_emails: cut at "e.g." before, which told the model nothing of the syntax
        assertThat(Sentences.first(
                        "Searches the mailbox with Gmail query syntax, e.g. 'from:alice is:unread newer_than:7d'."))
                .isEqualTo("Searches the mailbox with Gmail query syntax, e.g. 'from:alice is:unread newer_than:7d'.");
        assertThat(Sentences.first("Posts a message, e.g. To a channel. Needs a token."))
                .isEqualTo("Posts a message, e.g. To a channel.");
        assertThat(Sentences.first("Converts files (PNG, JPG, etc.) To PDF. Large files are split."))
                .isEqualTo("Converts files (PNG, JPG, etc.) To PDF.");
        assertThat(Sentences.first("Compares two prices, i.e. Old vs. New, and reports the change. Free."))
                .isEqualTo("Compares two prices, i.e. Old vs. New, and reports the change.");
        assertThat(Sentences.first("Resizes an image to approx. half its size. Keeps the ratio."))
                .isEqualTo("Resizes an image to approx. half its size.");
    }

    @Test
    void a_decimal_a_domain_an_initial_or_a_lower_case_word_after_a_dot_is_no_sentence_end() {
        assertThat(Sentences.first("Charges 2.5 credits per call to api.example.com. Returns the receipt."))
                .isEqualTo("Charges 2.5 credits per call to api.example.com. Returns the receipt.");
        assertThat(Sentences.first("Cites J. Smith on every page. Then prints."))
                .isEqualTo("Cites J. Smith on every page.");
        assertThat(Sentences.first("Opens the U.S. Census tables. Read only."))
                .isEqualTo("Opens the U.S. Census tables.");
        assertThat(Sentences.first("Calls Yahoo! mail and lists new messages. Slow."))
                .isEqualTo("Calls Yahoo! mail and lists new messages.");
    }

    @Test
    void real_sentence_ends_cut_and_a_text_without_one_stays_whole() {
        assertThat(Sentences.first("Sends an email. Requires a connected account."))
                .isEqualTo("Sends an email.");
        assertThat(Sentences.first("Is it raining? Ask this tool.")).isEqualTo("Is it raining?");
        assertThat(Sentences.first("Deletes the file (\"for good.\") Nothing can bring it back."))
                .isEqualTo("Deletes the file (\"for good.\")");
        assertThat(Sentences.first("Search the web\n\nArgs:\n  query: what to search for"))
                .isEqualTo("Search the web");
        String noEnd = "Lists\n  the files of a folder, with sizes and modification times, recursively when asked to";
        assertThat(Sentences.first(noEnd))
                .isEqualTo("Lists the files of a folder, with sizes and modification times, recursively when asked to");
        assertThat(Sentences.first("Ends with etc.")).isEqualTo("Ends with etc.");
    }
}
