//! The rules of a variant in words, as Markdown: what GamesmanUni shows in its
//! instructions pop-up (`GET /api/v1/chopsticks/{variant}/instructions/`), written
//! from the ruleset so that every switch is explained, and only the switches on.
//!
//! English only: GamesmanUni asks with the user's locale (`?locale=en-US`); every
//! well-formed locale gets the English text, and the answer names the locale it is
//! in.

use chopsticks_rules::{Overflow, PassSplits, Ruleset};

/// The longest locale tag read (BCP 47 tags are short; 35 is their practical bound).
pub const MAX_LOCALE: usize = 35;

/// Whether `locale` looks like a language tag (`en`, `en-US`, `zh-Hant-TW`).
pub fn is_locale(locale: &str) -> bool {
    !locale.is_empty()
        && locale.len() <= MAX_LOCALE
        && locale.split(['-', '_']).all(|part| {
            !part.is_empty() && part.len() <= 8 && part.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// The rules of `rules` as Markdown.
pub fn markdown(rules: &Ruleset) -> String {
    let f = rules.fingers;
    let p = rules.players();
    let mut out = String::new();
    out.push_str(&format!("# Chopsticks: {}\n\n", rules.describe()));
    out.push_str("## Setting up\n\n");
    let hands = if rules.is_symmetric() {
        let h = rules.hands[0];
        format!("{h} hand{}", if h == 1 { "" } else { "s" })
    } else {
        let list: Vec<String> = rules
            .hands
            .iter()
            .enumerate()
            .map(|(seat, h)| format!("Player {} {h}", seat + 1))
            .collect();
        format!("hands as follows: {}", list.join(", "))
    };
    out.push_str(&format!(
        "{p} players sit in turn order, Player 1 first, with {hands}. Every hand starts with \
         one finger up. A hand holds 1 to {} fingers; a hand with none is **dead**.\n\n",
        f - 1
    ));
    if rules.teams {
        out.push_str(
            "Players play in **two teams**: Players 1 and 3 (and 5, …) against Players 2 and 4 \
             (and 6, …). Partners never tap each other.\n\n",
        );
    }
    out.push_str("## Your turn\n\nOn your turn you make exactly one of these moves:\n\n");
    let opponent = if p == 2 {
        "your opponent's"
    } else if rules.teams {
        "an opponent's (a player of the other team)"
    } else {
        "any other player's"
    };
    let overflow = match rules.overflow {
        Overflow::Cutoff => format!("If it reaches {f} or more fingers, it dies (**cutoff**)."),
        Overflow::Rollover => format!(
            "Fingers are counted modulo {f} (**rollover**): a hand that reaches exactly {f} \
             dies, one that passes {f} keeps the rest (for example {} + {} = {} becomes {}).",
            f - 1,
            2.min(f - 1),
            f - 1 + 2.min(f - 1),
            (f - 1 + 2.min(f - 1)) % f
        ),
    };
    out.push_str(&format!(
        "- **Attack**: tap one of your live hands on one of {opponent} live hands. The tapped \
         hand gains as many fingers as your hand shows; your hand does not change. {overflow}\n"
    ));
    if rules.self_attack {
        out.push_str(
            "- **Self-attack**: tap one of your live hands on another of your own live hands, \
             with the same effect.\n",
        );
    }
    if rules.transfer {
        out.push_str(&format!(
            "- **Transfer**: move some fingers from one of your live hands to another live \
             hand of yours. No hand may end with {f} or more, and both hands stay alive.\n"
        ));
    }
    if rules.divide {
        let how = if rules.even_divide {
            " Only an even split is allowed: a hand of 4 gives 2."
        } else if rules.near_even_divide {
            " Only a split into halves differing by at most one is allowed (3 gives 1, keeps 2)."
        } else {
            ""
        };
        out.push_str(&format!(
            "- **Division** (revival): move some fingers from a live hand onto a dead hand of \
             yours, which comes back to life. The giving hand keeps at least one finger.{how}\n"
        ));
    }
    if rules.suicide {
        out.push_str(
            "- **Suicide** (merge): move all the fingers of one live hand onto another live \
             hand of yours; the emptied hand dies.\n",
        );
    }
    match rules.pass_splits {
        PassSplits::Off => out.push_str(
            "\nA rearrangement that leaves your hands as they were (swapping two hands) is \
             not a move.\n",
        ),
        PassSplits::Live => out.push_str(
            "- **Pass**: swap the counts of two live hands (1 and 3 become 3 and 1). Nothing \
             changes but the turn.\n",
        ),
        PassSplits::Any => out.push_str(
            "- **Pass**: swap the counts of two hands, a dead one included (0 and 1 become 1 \
             and 0). Nothing changes but the turn.\n",
        ),
    }
    out.push_str("\n## The end\n\n");
    let lost = if p == 2 {
        "A player whose hands are all dead is out."
    } else {
        "A player whose hands are all dead is out; the turn skips them."
    };
    let goal = match (rules.misere, rules.teams, p) {
        (false, false, 2) => "The player left with a live hand **wins**.".to_string(),
        (false, false, _) => "The last player left with a live hand **wins**.".to_string(),
        (false, true, _) => "The team left with a live hand **wins**.".to_string(),
        (true, false, _) => {
            "**Misère** play: the first player to lose every hand **wins**.".to_string()
        }
        (true, true, _) => {
            "**Misère** play: the first team one of whose players loses every hand **wins**."
                .to_string()
        }
    };
    out.push_str(&format!(
        "{lost} {goal} Play can go round in circles: with best play from both sides such a \
         game never ends, and it is a **draw**.\n\n"
    ));
    out.push_str(
        "## Values\n\nEvery position is solved: **win** means the player to move can force \
         a win, **lose** that the opponent can, **draw** that neither can. The remoteness \
         is the number of moves to the end with best play: the winner hurries, the loser \
         delays.",
    );
    if p > 2 {
        out.push_str(if rules.teams {
            " With teams, a value is the team's."
        } else {
            " With three or more players, each player's value is that player's alone \
             against all the others playing together (the coalition value). GamesmanUni \
             knows two players: it shows Player 1 as Player 1, and every other seat as \
             Player 2; the board names the player to move."
        });
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_switches_on_are_explained() {
        let standard = markdown(&Ruleset::from_variant_id("standard").unwrap());
        assert!(standard.contains("**Self-attack**"));
        assert!(standard.contains("**Transfer**"));
        assert!(standard.contains("**Division**"));
        assert!(!standard.contains("**Suicide**"));
        assert!(standard.contains("cutoff"));
        let rahman = markdown(&Ruleset::from_variant_id("rahman").unwrap());
        assert!(rahman.contains("**Suicide**"));
        assert!(rahman.contains("rollover"));
        assert!(rahman.contains("4 + 2 = 6 becomes 1"), "{rahman}");
        assert!(!rahman.contains("Self-attack"));
        let teams = markdown(&Ruleset::from_variant_id("standard.p4.teams").unwrap());
        assert!(teams.contains("two teams"));
        let misere = markdown(&Ruleset::from_variant_id("simple.misere").unwrap());
        assert!(misere.contains("Misère"));
    }

    /// A rule option added to the rules crate's table and forgotten here
    /// would leave two rulesets with the same instructions.
    #[test]
    fn every_rule_option_is_explained() {
        for (word, a, b) in chopsticks_rules::options::contrasts() {
            assert_ne!(markdown(&a), markdown(&b), "{word}");
        }
    }

    #[test]
    fn locales() {
        for good in ["en", "en-US", "zh-Hant-TW", "de_DE"] {
            assert!(is_locale(good), "{good}");
        }
        for bad in ["", "en US", "<script>", "en--US", &"x".repeat(40)] {
            assert!(!is_locale(bad), "{bad}");
        }
    }
}
