package dev.toolscout.indexing;

import java.util.Map;

/**
 * Abbreviations that programmers write in identifiers, with the words they stand for. A tool named {@code div}
 * or {@code get_repo_info} is asked for as "divide" or "repository": neither BM25 nor a small embedder links
 * the two, so the tool's name words carry the spelled-out word too ({@link ToolText#nameWords}).
 *
 * <p>Only abbreviations with one reading in an identifier are listed. Left out on purpose: {@code temp}
 * (temperature or temporary), {@code exp} (exponent, expiry, experience), {@code pos} (position, part of
 * speech, point of sale), {@code mod} (modulo, module, moderator), {@code prod} (product, production),
 * {@code gen}, {@code ts}, {@code dt}, {@code res}, {@code sim}, {@code det}.
 *
 * <p>Fitted rule "abbreviations": measured effect on every development set in docs/FITTED_RULES.md.
 */
public final class NameAbbreviations {
    private static final Map<String, String> WORDS = Map.ofEntries(
            // arithmetic and math
            Map.entry("sub", "subtract"),
            Map.entry("mul", "multiply"),
            Map.entry("mult", "multiply"),
            Map.entry("div", "divide"),
            Map.entry("calc", "calculate"),
            Map.entry("num", "number"),
            Map.entry("nums", "numbers"),
            Map.entry("avg", "average"),
            Map.entry("sqrt", "square root"),
            Map.entry("abs", "absolute"),
            Map.entry("gcd", "greatest common divisor"),
            Map.entry("hcf", "highest common factor"),
            Map.entry("lcm", "least common multiple"),
            Map.entry("std", "standard"),
            Map.entry("stat", "statistic"),
            Map.entry("stats", "statistics"),
            Map.entry("pct", "percent"),
            Map.entry("cnt", "count"),
            Map.entry("qty", "quantity"),
            Map.entry("amt", "amount"),
            // places and time
            Map.entry("lat", "latitude"),
            Map.entry("lng", "longitude"),
            Map.entry("lon", "longitude"),
            Map.entry("geo", "geographic"),
            Map.entry("loc", "location"),
            Map.entry("addr", "address"),
            Map.entry("tz", "timezone"),
            // software and data
            Map.entry("db", "database"),
            Map.entry("repo", "repository"),
            Map.entry("repos", "repositories"),
            Map.entry("pr", "pull request"),
            Map.entry("prs", "pull requests"),
            Map.entry("msg", "message"),
            Map.entry("msgs", "messages"),
            Map.entry("img", "image"),
            Map.entry("imgs", "images"),
            Map.entry("doc", "document"),
            Map.entry("docs", "documents"),
            Map.entry("txt", "text"),
            Map.entry("str", "string"),
            Map.entry("int", "integer"),
            Map.entry("char", "character"),
            Map.entry("chars", "characters"),
            Map.entry("dict", "dictionary"),
            Map.entry("idx", "index"),
            Map.entry("seq", "sequence"),
            Map.entry("tbl", "table"),
            Map.entry("col", "column"),
            Map.entry("cols", "columns"),
            Map.entry("obj", "object"),
            Map.entry("val", "value"),
            Map.entry("vals", "values"),
            Map.entry("var", "variable"),
            Map.entry("vars", "variables"),
            Map.entry("param", "parameter"),
            Map.entry("params", "parameters"),
            Map.entry("arg", "argument"),
            Map.entry("args", "arguments"),
            Map.entry("func", "function"),
            Map.entry("fn", "function"),
            Map.entry("cfg", "configuration"),
            Map.entry("config", "configuration"),
            Map.entry("conf", "configuration"),
            Map.entry("auth", "authentication"),
            Map.entry("env", "environment"),
            Map.entry("dir", "directory"),
            Map.entry("mkdir", "make directory"),
            Map.entry("cmd", "command"),
            Map.entry("exec", "execute"),
            Map.entry("del", "delete"),
            Map.entry("req", "request"),
            Map.entry("resp", "response"),
            Map.entry("info", "information"),
            Map.entry("desc", "description"),
            Map.entry("util", "utility"),
            Map.entry("org", "organization"),
            Map.entry("usr", "user"));

    private NameAbbreviations() {}

    /** The words {@code word} (lower case) abbreviates, or null when it is not a listed abbreviation. */
    public static String expand(String word) {
        return WORDS.get(word);
    }
}
