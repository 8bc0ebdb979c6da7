package dev.toolscout.server;

/** Verb manifests the CLI and HTTP tests register: three of the held-out verbs set, in the seed's style. */
public final class VerbFixtures {
    private VerbFixtures() {}

    public static final String VERBS = """
      {"verbs": [
        {"verb": "GET_WEATHER", "description": "Get the current weather and the forecast for a city or coordinates.",
         "capabilities": ["weather_data"], "category": "data_retrieval",
         "examples": ["Will it rain in Paris tomorrow?"],
         "inputDefinitions": [{"name": "location", "type": "string", "description": "City name", "required": true}],
         "outputDefinitions": [{"name": "forecast", "type": "object"}]},
        {"verb": "CONVERT_CURRENCY",
         "description": "Convert an amount of money from one currency to another at the current exchange rate.",
         "capabilities": ["currency_exchange", "finance"], "category": "finance",
         "examples": ["How much is 100 euros in dollars?"],
         "inputDefinitions": [{"name": "amount", "type": "number"}, {"name": "from", "type": "string"},
                              {"name": "to", "type": "string"}]},
        {"verb": "SEARCH_WEB", "description": "Search the web for information and return the most relevant pages.",
         "capabilities": ["web_search"], "examples": ["Find competitor websites"],
         "inputDefinitions": [{"name": "query", "type": "string", "required": true}]}]}
      """;
}
