package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueryClausesTest {
  @Test
  void sentences_semicolons_and_connectives_split_a_request() {
    assertThat(QueryClauses.split("Find flights to Oslo for Friday. Book the cheapest one; email me the receipt"))
        .containsExactly("Find flights to Oslo for Friday", "Book the cheapest one", "email me the receipt");
    assertThat(QueryClauses.split("convert the video to mp4 and then upload it to the drive"))
        .containsExactly("convert the video to mp4", "upload it to the drive");
    assertThat(QueryClauses.split("Check the weather in Rome THEN add a reminder for the trip"))
        .containsExactly("Check the weather in Rome", "add a reminder for the trip");
    assertThat(QueryClauses.split("translate this letter into French and also count its words"))
        .containsExactly("translate this letter into French", "count its words");
  }

  @Test
  void a_connective_opening_a_sentence_is_not_part_of_the_clause() {
    assertThat(QueryClauses.split("Create the event for Friday. Then check the forecast. Also book a table."))
        .containsExactly("Create the event for Friday", "check the forecast", "book a table");
  }

  @Test
  void plain_and_and_commas_do_not_split() {
    assertThat(QueryClauses.split("download and convert the video, then nothing")).isEmpty(); // "then nothing": 2 words
    assertThat(QueryClauses.split("search emails from Anna and Bob, newest first")).isEmpty();
  }

  @Test
  void numbers_and_dates_do_not_count_as_words_of_a_clause() {
    // "Today is 2022-03-01": two words with a letter, a bare value, not a request of its own
    assertThat(QueryClauses.split("Switch off my smart bulb at 10 pm tonight. Today is 2022-03-01.")).isEmpty();
    assertThat(QueryClauses.split("Switch off the bulb at 10 pm. Then set an alarm for 7am."))
        .containsExactly("Switch off the bulb at 10 pm", "set an alarm for 7am");
  }

  @Test
  void a_single_clause_or_short_fragments_leave_the_message_whole() {
    assertThat(QueryClauses.split("send an email to the team")).isEmpty();
    assertThat(QueryClauses.split("Send an email to the team. Thanks!")).isEmpty(); // "Thanks" is 1 word
    assertThat(QueryClauses.split("Hi. Ok. Send the weekly report to Anna.")).isEmpty();
    assertThat(QueryClauses.split("   ")).isEmpty();
  }

  @Test
  void more_than_four_clauses_join_the_shortest_neighbours() {
    // 5, 4, 4, 6, 6 words: the 4 + 4 pair is the shortest
    String m = "Open the sales report now. Sum the totals please. Plot them by month. "
        + "Write a short summary of it. Email the summary to finance today.";
    assertThat(QueryClauses.split(m))
        .containsExactly("Open the sales report now", "Sum the totals please Plot them by month",
            "Write a short summary of it", "Email the summary to finance today");
  }

  @Test
  void the_split_point_is_a_whole_word() {
    // "then" and "also" inside words (authentication, alsoran) are not connectives
    assertThat(QueryClauses.split("run the authentication check for the alsoran account")).isEmpty();
  }
}
