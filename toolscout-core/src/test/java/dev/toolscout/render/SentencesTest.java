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

    @Test
    void for_random_descriptions_the_summary_is_a_prefix_that_never_ends_at_an_abbreviation_or_inside_a_number() {
        long seed = new java.util.Random().nextLong();
        System.out.println("SentencesTest seed: " + seed);
        java.util.Random rnd = new java.util.Random(seed);
        String[] words = {
            "Sends",
            "an",
            "email",
            "to",
            "Bob",
            "with",
            "the",
            "report",
            "Lists",
            "files",
            "3.5",
            "example.com",
            "U.S.",
            "e.g.",
            "i.e.",
            "etc.",
            "vs.",
            "approx.",
            "J.",
            "Returns",
            "JSON",
            "(PNG,",
            "JPG)"
        };
        for (int n = 0; n < 2_000; n++) {
            StringBuilder b = new StringBuilder();
            int len = 1 + rnd.nextInt(30);
            for (int i = 0; i < len; i++) {
                b.append(i == 0 ? "" : rnd.nextInt(20) == 0 ? "\n" : " ").append(words[rnd.nextInt(words.length)]);
                if (rnd.nextInt(6) == 0) {
                    b.append('.');
                }
            }
            String text = b.toString();
            String folded = text.strip().replaceAll("\\s+", " ");
            String first = Sentences.first(text);
            assertThat(folded).as("seed %d: %s", seed, text).startsWith(first);
            if (first.length() < folded.length()) {
                String lastWord = first.substring(first.lastIndexOf(' ') + 1).toLowerCase(java.util.Locale.ROOT);
                assertThat(first).as("seed %d: %s", seed, text).endsWith(".");
                assertThat(lastWord)
                        .as("seed %d: %s", seed, text)
                        .isNotIn("e.g.", "i.e.", "etc.", "vs.", "approx.", "u.s.", "j.", "3.5.", "example.com.");
                // what follows a cut starts a sentence: not a lower-case word or a digit
                char next = folded.charAt(first.length() + 1);
                assertThat(Character.isLowerCase(next) || Character.isDigit(next))
                        .as("seed %d: %s", seed, text)
                        .isFalse();
            }
        }
    }
}
