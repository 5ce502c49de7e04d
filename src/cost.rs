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
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tokens {
    input: u64,
    output: u64,
    cache_read: u64,
    cache_write: u64,
}

impl Tokens {
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
    let total = Tokens {
        input: n(usage, "input_tokens"),
        output: n(usage, "output_tokens"),
        cache_read: n(usage, "cache_read_input_tokens"),
        cache_write: n(usage, "cache_creation_input_tokens"),
    };
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
    let priced: Option<f64> = (!per_model.is_empty())
        .then(|| {
            per_model
                .iter()
                .map(|(model, tokens)| prices.of(model).map(|p| tokens.cost(p)))
                .sum::<Option<f64>>()
        })
        .flatten();
    // The per-model figures cover side requests (titles) too: they are the whole run when present.
    let tokens = if per_model.is_empty() {
        total
    } else {
        per_model.iter().fold(Tokens::default(), |sum, (_, t)| Tokens {
            input: sum.input + t.input,
            output: sum.output + t.output,
            cache_read: sum.cache_read + t.cache_read,
            cache_write: sum.cache_write + t.cache_write,
        })
    };
    Some(Receipt {
        tokens_in: tokens.input,
        tokens_out: tokens.output,
        cache_read: tokens.cache_read,
        cache_write: tokens.cache_write,
        models: per_model.into_iter().map(|(m, _)| m).collect(),
        cost_usd: priced.or_else(|| report.get("total_cost_usd").and_then(Value::as_f64)),
    })
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
