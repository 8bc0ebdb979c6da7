package dev.toolscout.selection;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.Fixture;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CredentialDependenciesTest {
  private static final ObjectMapper M = new ObjectMapper();

  static ToolSpec takes(String name, String description, String... params) {
    ObjectNode schema = M.createObjectNode().put("type", "object");
    ObjectNode props = schema.putObject("properties");
    for (String p : params) {
      props.putObject(p).put("type", "string");
    }
    return ToolSpec.builder(name, description).parameters(schema).build();
  }

  private static CredentialDependencies of(List<ToolSpec> tools) {
    Fixture f = new Fixture();
    f.catalog.sync(tools);
    return CredentialDependencies.of(f.catalog.snapshot());
  }

  @Test
  void a_tool_taking_a_token_needs_the_one_tool_that_issues_it() {
    CredentialDependencies d = of(List.of(
        takes("bank__GetUserToken", "Log in: a token for the user.", "username", "password"),
        takes("bank__ModifyAlarm", "Change an alarm.", "token", "time"),
        takes("bank__QueryBalance", "Account balance.", "account"),
        takes("crm__create_session", "Open a CRM session.", "user"),
        takes("crm__list_deals", "Deals in the pipeline.", "session_id", "stage")));
    assertThat(d.of("bank__ModifyAlarm")).containsExactly(new CredentialDependencies.Issuer("bank__GetUserToken", "token"));
    assertThat(d.of("bank__QueryBalance")).isEmpty();
    assertThat(d.of("crm__list_deals"))
        .containsExactly(new CredentialDependencies.Issuer("crm__create_session", "session_id"));
    assertThat(d.of("bank__GetUserToken")).isEmpty();
  }

  @Test
  void a_longer_credential_name_needs_an_issuer_ending_in_all_its_words() {
    CredentialDependencies d = of(List.of(
        takes("api__generate_access_token", "An OAuth access token.", "client_id"),
        takes("api__get_refresh_token", "A refresh token.", "client_id"),
        takes("api__call", "Call the API.", "accessToken", "path"),
        takes("api__upload", "Upload a file.", "token", "file")));
    assertThat(d.of("api__call"))
        .containsExactly(new CredentialDependencies.Issuer("api__generate_access_token", "accessToken"));
    assertThat(d.of("api__upload")).isEmpty(); // a plain "token": both issue one, so neither is implied
  }

  @Test
  void two_possible_issuers_or_an_issuer_that_takes_the_token_itself_say_nothing() {
    assertThat(of(List.of(
        takes("a__get_token", "A token.", "user"),
        takes("b__create_token", "Another token.", "user"),
        takes("c__upload", "Upload.", "token", "file"))).of("c__upload")).isEmpty();
    assertThat(of(List.of(
        takes("a__refresh_token", "A new token for an old one.", "token"),
        takes("a__get_token", "Refresh.", "token"),
        takes("c__upload", "Upload.", "token", "file"))).of("c__upload")).isEmpty();
  }

  @Test
  void only_credentials_are_inferred_not_every_getter() {
    CredentialDependencies d = of(List.of(
        takes("geo__get_location", "Where the user is.", "user"),
        takes("weather__forecast", "Forecast for a place.", "location"),
        takes("crypto__get_token_price", "Price of a crypto token.", "symbol"),
        takes("crypto__swap", "Swap tokens.", "token", "amount")));
    assertThat(d.of("weather__forecast")).isEmpty();
    assertThat(d.of("crypto__swap")).isEmpty(); // "get token price" ends in "price": it issues no token
  }

  @Test
  void the_selector_brings_the_issuer_right_after_the_tool_that_needs_it_and_says_why() {
    Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(List.of()));
    List<ToolSpec> tools = new ArrayList<>(List.of(
        takes("bank__GetUserToken", "Log in with a username and password.", "username", "password"),
        takes("bank__ModifyAlarm", "Change the time of an alarm.", "token", "time"),
        takes("bank__QueryBalance", "The balance of a bank account.", "account")));
    for (int i = 0; i < 20; i++) {
      tools.add(Fixture.tool("misc__tool_" + i, "Unrelated helper number " + i + " for reports."));
    }
    f.catalog.sync(tools);
    Selection s = f.selector.select(new Selector.Request("change the time of my alarm to 7am",
        dev.toolscout.model.Principal.ANONYMOUS, 3, null));
    List<String> names = s.selected().stream().map(Selection.SelectedTool::name).toList();
    assertThat(names.get(0)).isEqualTo("bank__ModifyAlarm");
    assertThat(names.get(1)).isEqualTo("bank__GetUserToken");
    assertThat(s.selected().get(1).reason())
        .isEqualTo("needed by bank__ModifyAlarm (it takes the 'token' this tool issues)");
  }

  @Test
  void an_issuer_the_principal_may_not_see_is_never_brought() {
    Fixture f = new Fixture(SelectorConfig.DEFAULT.withCoreTools(List.of()));
    f.catalog.sync(List.of(
        takes("bank__GetUserToken", "Log in with a username and password.", "username", "password"),
        takes("bank__ModifyAlarm", "Change the time of an alarm.", "token", "time")));
    f.access.setPolicy(new dev.toolscout.access.AccessPolicy(dev.toolscout.access.AccessRule.Effect.ALLOW,
        java.util.Map.of(), List.of(new dev.toolscout.access.AccessRule(dev.toolscout.access.AccessRule.Effect.DENY,
            dev.toolscout.access.AccessRule.Target.TOOL, "bank__GetUserToken",
            dev.toolscout.access.AccessRule.Subject.EVERYONE, null))));
    Selection s = f.selector.select(new Selector.Request("change the time of my alarm to 7am",
        dev.toolscout.model.Principal.ANONYMOUS, 5, null));
    assertThat(s.selected()).extracting(Selection.SelectedTool::name).containsExactly("bank__ModifyAlarm");
  }
}
