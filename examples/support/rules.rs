//! The game's rules as the measuring tools take them on their command
//! lines, shared by `examples/selfplay.rs`, `examples/tune.rs` and
//! `examples/train.rs`; each tool takes the flags it lists.

use clines::game::{Rule, RuleError, Rules};

/// The flag that sets `rule`.
pub fn flag(rule: Rule) -> &'static str {
    match rule {
        Rule::Width => "--width",
        Rule::Height => "--height",
        Rule::Colors => "--colors",
        Rule::Line => "--line",
        Rule::Next => "--next",
        Rule::First => "--first",
    }
}

/// Sets the rule that `flag` names to `value`, if it is one of `taken`;
/// `None` for any other flag. The value is checked with the others by
/// [`validate`], but for a number of colours too large to hold.
pub fn set(
    rules: &mut Rules,
    taken: &[Rule],
    flag: &str,
    value: &str,
) -> Option<Result<(), String>> {
    let rule = *taken.iter().find(|&&rule| self::flag(rule) == flag)?;
    let Ok(number) = value.parse::<usize>() else {
        return Some(Err(format!("{flag} {value}: not a whole number")));
    };
    let field = match rule {
        Rule::Width => &mut rules.width,
        Rule::Height => &mut rules.height,
        Rule::Line => &mut rules.line,
        Rule::Next => &mut rules.next,
        Rule::First => &mut rules.first,
        Rule::Colors => {
            return Some(match u8::try_from(number) {
                Ok(colors) => {
                    rules.colors = colors;
                    Ok(())
                }
                Err(_) => Err(refusal(&RuleError {
                    rule,
                    value: number,
                    min: rule.min(),
                    max: rule.max(rules),
                })),
            });
        }
    };
    *field = number;
    Some(Ok(()))
}

/// Checks `rules`, naming the flag of the rule refused where it is one of
/// `taken`: a tool that leaves a rule at its default (too large for a tiny
/// board) names no flag it does not take.
pub fn validate(rules: &Rules, taken: &[Rule]) -> Result<(), String> {
    rules.validate().map_err(|e| {
        if taken.contains(&e.rule) {
            refusal(&e)
        } else {
            e.to_string()
        }
    })
}

/// The message for a rule refused: `--width 0: the board width must be
/// from 1 to 1000`.
fn refusal(error: &RuleError) -> String {
    format!(
        "{} {}: {}",
        flag(error.rule),
        error.value,
        error.requirement()
    )
}
