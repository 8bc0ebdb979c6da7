package dev.toolscout.selection;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.index.ToolText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Dependencies a catalog does not declare but its tools imply: a tool that takes a credential (a parameter
 * whose name ends in {@code token} or {@code session}, or is {@code session_id}) needs the one tool that issues
 * it. The issuer is found by name: its action, split into words, starts with a verb that issues things
 * ({@value #VERBS_TEXT}) and ends with the parameter's words ({@code GetUserToken} issues {@code token}, {@code
 * create_session} issues {@code session}, {@code generate_access_token} issues {@code access_token}); it does
 * not take that parameter itself; and it is the only such tool in the catalog (two candidates say nothing).
 *
 * <p>Only credentials, on purpose: on the development sets, the same rule for every parameter name linked a
 * third of seal-tools' and a quarter of apigen's tools to getters they do not need, and cost both sets (up to 4
 * points of nDCG@10), while credentials linked only API-Bank's eighteen token-taking tools to {@code
 * GetUserToken} (docs/EVALUATION.md, "Inferred credential dependencies"). Immutable; computed once per catalog
 * snapshot.
 */
final class CredentialDependencies {
  static final String VERBS_TEXT = "get, fetch, retrieve, create, generate, obtain, request, issue";
  private static final Set<String> VERBS = Set.of(VERBS_TEXT.split(", "));
  private static final Set<String> CREDENTIAL_WORDS = Set.of("token", "session");

  /** One inferred dependency: {@code issuer} issues {@code parameter}, which the dependent tool takes. */
  record Issuer(String name, String parameter) {}

  private final long version;
  private final Map<String, List<Issuer>> byTool;

  private CredentialDependencies(long version, Map<String, List<Issuer>> byTool) {
    this.version = version;
    this.byTool = byTool;
  }

  long version() {
    return version;
  }

  /** The issuers a tool needs, in its parameter order; empty when none is implied. */
  List<Issuer> of(String toolName) {
    return byTool.getOrDefault(toolName, List.of());
  }

  static CredentialDependencies of(Catalog.Snapshot snap) {
    // credential words (as "token" or "access token") -> the tools whose action issues them
    Map<String, List<CatalogEntry>> issuers = new HashMap<>();
    for (CatalogEntry e : snap.entries()) {
      String action = e.spec().name().action();
      if (!endsWithCredentialWord(action)) {
        continue; // the cheap test first: this pass sees every tool of the catalog
      }
      String[] w = ToolText.splitIdentifier(action).split(" ");
      if (w.length < 2 || !VERBS.contains(w[0]) || !CREDENTIAL_WORDS.contains(w[w.length - 1])) {
        continue;
      }
      for (int k = 1; k < w.length; k++) {
        issuers.computeIfAbsent(String.join(" ", List.of(w).subList(k, w.length)), x -> new ArrayList<>()).add(e);
      }
    }
    Map<String, List<Issuer>> byTool = new HashMap<>();
    if (issuers.isEmpty()) {
      return new CredentialDependencies(snap.version(), byTool);
    }
    // an issuer does not take what it issues: checked once per (credential, issuer), not per dependent tool
    issuers.replaceAll((credential, list) -> list.stream().filter(c -> !takes(c, credential)).toList());
    for (CatalogEntry e : snap.entries()) {
      LinkedHashSet<Issuer> found = new LinkedHashSet<>();
      for (String p : e.spec().parameterNames()) {
        if (!mayBeCredential(p)) {
          continue; // the cheap test first, as above
        }
        String words = ToolText.splitIdentifier(p);
        String credential = credentialWords(words);
        if (credential == null) {
          continue;
        }
        List<CatalogEntry> candidates = new ArrayList<>();
        for (CatalogEntry c : issuers.getOrDefault(credential, List.of())) {
          if (c != e) {
            candidates.add(c);
          }
        }
        if (candidates.size() == 1) {
          found.add(new Issuer(candidates.get(0).name(), p));
        }
      }
      if (!found.isEmpty()) {
        byTool.put(e.name(), List.copyOf(found));
      }
    }
    return new CredentialDependencies(snap.version(), byTool);
  }

  private static boolean mayBeCredential(String parameter) {
    String p = parameter.toLowerCase(java.util.Locale.ROOT);
    for (String word : CREDENTIAL_WORDS) {
      if (p.contains(word)) {
        return true;
      }
    }
    return false;
  }

  private static boolean endsWithCredentialWord(String action) {
    for (String word : CREDENTIAL_WORDS) {
      int from = action.length() - word.length();
      if (from >= 0 && action.regionMatches(true, from, word, 0, word.length())) {
        return true;
      }
    }
    return false;
  }

  /** The words an issuer's name must end with, or null when the parameter is not a credential. */
  private static String credentialWords(String words) {
    if (words.equals("session id") || words.equals("sessionid")) {
      return "session";
    }
    int space = words.lastIndexOf(' ');
    String last = space < 0 ? words : words.substring(space + 1);
    return CREDENTIAL_WORDS.contains(last) ? words : null;
  }

  private static boolean takes(CatalogEntry tool, String credential) {
    for (String p : tool.spec().parameterNames()) {
      String w = ToolText.splitIdentifier(p);
      if (w.equals(credential) || credential.equals(credentialWords(w))) {
        return true;
      }
    }
    return false;
  }
}
