//! Rules and positions of Chopsticks, in all its generalisations.
//!
//! The model: a [`Ruleset`] is one point of the rule space (players, hands per player,
//! fingers `F`, cutoff or rollover, and switches for self-attacks, transfers,
//! divisions, even-only divisions, suicide, pass-splits and misère play). A
//! [`Position`] is canonical: players listed mover first, each player's hands a sorted
//! multiset. [`Position::moves`] lists the legal moves ([`Move`], each with a textual
//! description that [`Position::find_move`] reads back) and the positions they lead
//! to. [`PositionIndex`] numbers the canonical positions `0..count` so that solvers
//! can use flat arrays. Positions are read and written in every notation of the
//! sources ([`Notation`]). A ruleset is also named by a short variant id such as
//! `rollover.h3.f7.suicide` ([`Ruleset::from_variant_id`], [`Ruleset::variant_id`]).
//!
//! The effect of a move on one player's hands lives in [`hands`], the one place where
//! the rules are spelled out; everything else composes it.

mod error;
pub mod hands;
mod index;
mod move_text;
mod notation;
pub mod options;
mod player;
mod position;
mod ruleset;
mod seated;
pub mod text;
mod variant;

pub use error::{escape_controls, quoted, Result, RulesError, MAX_QUOTED};
pub use hands::SplitKind;
pub use index::{MultisetIndex, PositionIndex};
pub use move_text::{
    read_move_text, MoveText, Target, MOVE_FORMS, MOVE_FORMS_TABLE, MOVE_TARGET_FORMS,
    MOVE_TARGET_TABLE,
};
pub use notation::Notation;
pub use player::{team_seats, team_text, Player};
pub use position::{hands_text, normalise_move_text, Move, Position};
pub use ruleset::{Overflow, PassSplits, Preset, Ruleset, MAX_FINGERS, MAX_HANDS, MAX_PLAYERS};
pub use seated::SeatedPosition;
pub use variant::{variant_size_token, MAX_VARIANT_ID};
