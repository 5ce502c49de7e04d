//! Cost receipts: what each run of the agent used (tokens in and out, prompt-cache reads and writes) and what it
//! cost in dollars, read from the usage the agent's JSON output reports (`claude -p --output-format json`: its
//! `usage`, `modelUsage` per model and `total_cost_usd`), priced by a table of models.
//!
//! The table is built in ([`BUILT_IN`], US dollars per million tokens, the vendor's list prices) and the user
//! overrides or extends it with a JSON file (`--prices FILE`, else `$LOOPGATE_HOME/prices.json` when it exists):
//! `{"models": {"PATTERN": {"input": 3, "output": 15, "cache_write": 3.75, "cache_read": 0.3}}}`. A pattern
//! matches a model id that contains it; the user's rows come first, then the built-in ones, most specific first.
//! When a model is in no row, the agent's own `total_cost_usd` is the cost; when there is neither, the cost is
//! unknown (the tokens are still recorded).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

pub use crate::schema::Receipt;

/// Dollars per million tokens of one kind of model.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub input: f64,
    pub output: f64,
    pub cache_write: f64,
    pub cache_read: f64,
}

/// Built-in prices: (a part of the model id, price), most specific first.
pub const BUILT_IN: &[(&str, Price)] = &[
    ("opus-4-5", price(5.0, 25.0, 6.25, 0.5)),
    ("opus-4-6", price(5.0, 25.0, 6.25, 0.5)),
    ("opus", price(15.0, 75.0, 18.75, 1.5)),
    ("sonnet", price(3.0, 15.0, 3.75, 0.3)),
    ("haiku-4", price(1.0, 5.0, 1.25, 0.1)),
    ("haiku", price(0.8, 4.0, 1.0, 0.08)),
];

const fn price(input: f64, output: f64, cache_write: f64, cache_read: f64) -> Price {
    Price {
        input,
        output,
        cache_write,
        cache_read,
    }
}

/// The price table in force: the user's rows, then the built-in ones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prices {
    user: Vec<(String, Price)>,
}

/// The override file's shape.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    models: BTreeMap<String, Price>,
}

/// The file of prices the user gave, or the one in loopgate's home.
pub fn default_file() -> PathBuf {
    crate::project::loopgate_home().join("prices.json")
}

impl Prices {
    /// The table with the user's file: `path` (which must exist), else the default file if it exists. The error
    /// is one line naming the file and the field.
    pub fn load(path: Option<&Path>) -> Result<Self, String> {
        let (path, required) = match path {
            Some(path) => (path.to_path_buf(), true),
            None => (default_file(), false),
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => return Err(format!("cannot read the price file `{}`: {e}", path.display())),
        };
        let file: File = serde_json::from_str(&text)
            .map_err(|e| format!("price file `{}`: {e} (see docs/cost.md for its shape)", path.display()))?;
        let mut user = Vec::new();
        for (pattern, price) in file.models {
            let fields = [
                ("input", price.input),
                ("output", price.output),
                ("cache_write", price.cache_write),
                ("cache_read", price.cache_read),
            ];
            if let Some((field, value)) = fields.iter().find(|(_, v)| !v.is_finite() || *v < 0.0) {
                return Err(format!(
                    "price file `{}`: `models.{pattern}.{field}` is {value}: a price is dollars per million tokens, 0 or more",
                    path.display()
                ));
            }
            if pattern.trim().is_empty() {
                return Err(format!(
                    "price file `{}`: a model pattern in `models` is empty",
                    path.display()
                ));
            }
            user.push((pattern, price));
        }
        // The longest pattern is the most specific.
        user.sort_by_key(|(pattern, _)| std::cmp::Reverse(pattern.len()));
        Ok(Self { user })
    }

    /// The user's rows, as the price file gives them: what a loop seals at setup (`--max-cost`), so the table
    /// that prices its stops is the one the user set it up with.
    pub fn rows(&self) -> BTreeMap<String, Price> {
        self.user.iter().cloned().collect()
    }

    /// The table from sealed rows (see [`Prices::rows`]).
    pub fn from_rows(rows: &BTreeMap<String, Price>) -> Self {
        let mut user: Vec<(String, Price)> = rows.iter().map(|(p, price)| (p.clone(), *price)).collect();
        user.sort_by_key(|(pattern, _)| std::cmp::Reverse(pattern.len()));
        Self { user }
    }

    /// The price of `model`, if a row matches it.
    pub fn of(&self, model: &str) -> Option<Price> {
        let model = model.to_ascii_lowercase();
        self.user
            .iter()
            .map(|(p, price)| (p.as_str(), *price))
            .chain(BUILT_IN.iter().copied())
            .find(|(pattern, _)| model.contains(&pattern.to_ascii_lowercase()))
            .map(|(_, price)| price)
    }
}

/// Tokens of one model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
}

impl Tokens {
    /// The Messages API's `usage` object (`input_tokens`, `output_tokens`, `cache_read_input_tokens`,
    /// `cache_creation_input_tokens`), as `claude -p` reports it and Claude Code's transcript records it.
    pub fn from_usage(usage: &Value) -> Self {
        let n = |key: &str| usage.get(key).and_then(Value::as_u64).unwrap_or(0);
        Self {
            input: n("input_tokens"),
            output: n("output_tokens"),
            cache_read: n("cache_read_input_tokens"),
            cache_write: n("cache_creation_input_tokens"),
        }
    }

    /// Every kind summed: what `--max-tokens` counts.
    pub fn all(&self) -> u64 {
        self.input + self.output + self.cache_read + self.cache_write
    }

    /// The two added kind by kind.
    pub fn plus(self, other: Self) -> Self {
        Self {
            input: self.input + other.input,
            output: self.output + other.output,
            cache_read: self.cache_read + other.cache_read,
            cache_write: self.cache_write + other.cache_write,
        }
    }

    fn cost(&self, price: Price) -> f64 {
        let m = |n: u64, per: f64| n as f64 * per / 1_000_000.0;
        m(self.input, price.input)
            + m(self.output, price.output)
            + m(self.cache_write, price.cache_write)
            + m(self.cache_read, price.cache_read)
    }
}

/// The receipt of one agent run from its output: the last line (of the last lines) that is a JSON object with a
/// `usage` object. `None` when the output reports no usage.
pub fn from_output(output: &str, prices: &Prices) -> Option<Receipt> {
    let report = last_report(output)?;
    let usage = report.get("usage")?;
    let n = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
    let total = Tokens::from_usage(usage);
    let per_model: Vec<(String, Tokens)> = report
        .get("modelUsage")
        .and_then(Value::as_object)
        .map(|models| {
            models
                .iter()
                .map(|(model, u)| {
                    let tokens = Tokens {
                        input: n(u, "inputTokens"),
                        output: n(u, "outputTokens"),
                        cache_read: n(u, "cacheReadInputTokens"),
                        cache_write: n(u, "cacheCreationInputTokens"),
                    };
                    (model.clone(), tokens)
                })
                .collect()
        })
        .or_else(|| {
            let model = report.get("model").and_then(Value::as_str)?;
            Some(vec![(model.to_string(), total)])
        })
        .unwrap_or_default();
    let mut receipt = priced(&per_model, prices);
    if receipt.models.is_empty() {
        // No per-model figures: the report's own totals, unpriced.
        receipt.tokens_in = total.input;
        receipt.tokens_out = total.output;
        receipt.cache_read = total.cache_read;
        receipt.cache_write = total.cache_write;
    }
    receipt.cost_usd = receipt
        .cost_usd
        .or_else(|| report.get("total_cost_usd").and_then(Value::as_f64));
    Some(receipt)
}

/// The receipt of per-model usage priced by the table: dollars only when a row prices every model (a model
/// that used no tokens costs nothing, priced or not), and `None` for no models at all. The per-model figures
/// cover side requests (titles) too: they are the whole run.
pub fn priced(per_model: &[(String, Tokens)], prices: &Prices) -> Receipt {
    let cost = (!per_model.is_empty())
        .then(|| {
            per_model
                .iter()
                .map(|(model, tokens)| match prices.of(model) {
                    Some(p) => Some(tokens.cost(p)),
                    None => (tokens.all() == 0).then_some(0.0),
                })
                .sum::<Option<f64>>()
        })
        .flatten();
    let tokens = per_model.iter().fold(Tokens::default(), |sum, (_, t)| sum.plus(*t));
    Receipt {
        tokens_in: tokens.input,
        tokens_out: tokens.output,
        cache_read: tokens.cache_read,
        cache_write: tokens.cache_write,
        models: per_model.iter().map(|(m, _)| m.clone()).collect(),
        cost_usd: cost,
    }
}

/// The agent's final text from its JSON report (`result`), if the output ends with one.
pub fn result_text(output: &str) -> Option<String> {
    last_report(output)?.get("result")?.as_str().map(str::to_string)
}

/// The last JSON object among the output's last lines that carries `usage` or `result`.
fn last_report(output: &str) -> Option<Value> {
    output.lines().rev().take(50).find_map(|line| {
        let line = line.trim();
        if !line.starts_with('{') || !(line.contains("\"usage\"") || line.contains("\"result\"")) {
            return None;
        }
        serde_json::from_str::<Value>(line).ok().filter(Value::is_object)
    })
}

/// The sum of receipts: tokens and dollars so far (`None` dollars when any run's cost is unknown).
pub fn total<'a>(receipts: impl IntoIterator<Item = &'a Receipt>) -> Receipt {
    receipts.into_iter().fold(
        Receipt {
            cost_usd: Some(0.0),
            ..Receipt::default()
        },
        |sum, r| Receipt {
            tokens_in: sum.tokens_in + r.tokens_in,
            tokens_out: sum.tokens_out + r.tokens_out,
            cache_read: sum.cache_read + r.cache_read,
            cache_write: sum.cache_write + r.cache_write,
            models: Vec::new(),
            cost_usd: sum.cost_usd.zip(r.cost_usd).map(|(a, b)| a + b),
        },
    )
}

/// A budget in dollars as the user gave it: `$5.00`, `$2.50`, `$0.001` (never rounded to `$0.00`).
pub fn dollars(amount: f64) -> String {
    if (amount * 100.0).fract() == 0.0 {
        format!("${amount:.2}")
    } else {
        format!("${amount}")
    }
}

/// `$0.0123, 1200 in / 340 out, cache 5000 read / 800 written`
pub fn describe(r: &Receipt) -> String {
    let cost = r.cost_usd.map_or_else(|| "$?".to_string(), |c| format!("${c:.4}"));
    let mut text = format!("{cost}, {} in / {} out", r.tokens_in, r.tokens_out);
    if r.cache_read + r.cache_write > 0 {
        text.push_str(&format!(", cache {} read / {} written", r.cache_read, r.cache_write));
    }
    text
}

#[cfg(test)]
mod tests;
