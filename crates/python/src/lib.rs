//! The Python package `chopsticks_toolkit`: the toolkit's library crates called
//! from Python through PyO3, with no second implementation.
//!
//! The model: Python holds a few kinds of objects, each wrapping one value of a
//! library crate, and every answer is a `dict` (or a list of them) built by
//! `chopsticks-report`, the crate that builds the command line's `--json`
//! documents, converted key for key. So a field has the same name and meaning in
//! `chopsticks query --json`, in the Python package and in `docs/JSON.md`;
//! positions are read by the one reader of positions
//! (`SeatedPosition::parse`: seated ids `2_1312` and every mover-first
//! notation) and written as seated ids unless a notation is asked for; players
//! are numbered from 1.
//!
//! - `PyRuleset` (`chopsticks_toolkit.Ruleset`): a ruleset read from a variant
//!   id or keywords; positions, moves and their notations, without solving.
//! - `PyPosition` (`chopsticks_toolkit.Position`): one position, which Jupyter
//!   draws inline (`chopsticks_learn::board`).
//! - `PySolution` (`chopsticks_toolkit.Solution`): a solved table, solved here
//!   (`chopsticks_toolkit.solve`) or opened from a saved file
//!   (`chopsticks_toolkit.load`, read in place and checked around every
//!   position shown, as the command line does); queries, lines, reviews,
//!   puzzles, the summary; the whole table as numpy arrays or DataFrames
//!   (`frames`), at once or in `PyChunks`.
//! - `PyAtlas` (`chopsticks_toolkit.Atlas`): the outcome class of every Simple
//!   Chopsticks position up to a number of hands a side, as records or as a
//!   flat array of outcome codes.
//!
//! Errors are Python exceptions, defined in `chopsticks_toolkit/_errors.py` so
//! that they can also be Python's own kinds (`RulesError` is a `ValueError`);
//! each carries the message the command line prints. Long work (solves,
//! atlases, puzzle searches) releases the interpreter lock while it runs; a
//! solve can be stopped with Ctrl-C (`interruptible`).

mod frames;

use std::path::PathBuf;
use std::sync::OnceLock;

use chopsticks_atlas::{Atlas, AtlasError};
use chopsticks_driver::{DriverError, Events, SolveRequest};
use chopsticks_learn::puzzles::{Filter, PuzzleKind};
use chopsticks_learn::{Difficulty, GameRecord, LearnError, PuzzleSet};
use chopsticks_report::value::{ValueOptions, ValueReportError};
use chopsticks_report::ReportError;
use chopsticks_rules::{
    Notation, Position, PositionIndex, Preset, RulesError, Ruleset, SeatedPosition,
};
use chopsticks_solve::{file, SolveError, Solved};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyType};
use pyo3::IntoPyObjectExt;
use serde_json::{json, Value};

/// The extension's own allocator: a query builds and frees thousands of small
/// objects (its moves, their texts, the document), which glibc's allocator,
/// shared with the interpreter, spends a third of the time on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Which Python exception an error becomes (see `chopsticks/_errors.py`).
#[derive(Clone, Copy)]
enum Kind {
    /// An impossible ruleset, variant id, position, move, notation or record.
    Rules,
    /// Work refused before it starts, with its estimate.
    TooLarge,
    /// A saved solution that cannot be read, is damaged, or contradicts the rules.
    File,
    /// Anything else the toolkit refuses.
    Other,
}

/// An error of the toolkit as a Python exception of its kind, with its message.
struct Failure(Kind, String);

impl From<Failure> for PyErr {
    fn from(Failure(kind, message): Failure) -> PyErr {
        Python::attach(|py| {
            let name = match kind {
                Kind::Rules => "RulesError",
                Kind::TooLarge => "TooLargeError",
                Kind::File => "SolutionFileError",
                Kind::Other => "ChopsticksError",
            };
            match py
                .import("chopsticks_toolkit._errors")
                .and_then(|m| m.getattr(name))
                .and_then(|t| t.cast_into::<PyType>().map_err(PyErr::from))
            {
                Ok(ty) => PyErr::from_type(ty, message),
                Err(e) => e,
            }
        })
    }
}

fn rules_failure(e: RulesError) -> Failure {
    let kind = match e {
        RulesError::TooLarge(_) => Kind::TooLarge,
        _ => Kind::Rules,
    };
    Failure(kind, e.to_string())
}

fn solve_failure(e: SolveError) -> Failure {
    if let SolveError::NoRemoteness = e {
        return Failure(
            Kind::Other,
            "this solution holds values without remoteness (solved with remoteness=False); \
             lines, reviews and puzzles need the remoteness: solve again with remoteness=True"
                .into(),
        );
    }
    let kind = match &e {
        SolveError::Rules(_) | SolveError::Players(_) => Kind::Rules,
        SolveError::File { .. }
        | SolveError::Damaged { .. }
        | SolveError::Inconsistent(_)
        | SolveError::Io(_)
        | SolveError::Save(_)
        | SolveError::Checkpoint(_) => Kind::File,
        SolveError::TooManyMoves(_) => Kind::TooLarge,
        _ => Kind::Other,
    };
    Failure(kind, e.to_string())
}

fn learn_failure(e: LearnError) -> Failure {
    match e {
        LearnError::Solve(e) => solve_failure(e),
        LearnError::Sheet(m) => Failure(Kind::Other, m),
        e => Failure(Kind::Rules, e.to_string()),
    }
}

fn report_failure(e: ReportError) -> Failure {
    match e {
        ReportError::Rules(e) => rules_failure(e),
        ReportError::Solve(e) => solve_failure(e),
        ReportError::Learn(e) => learn_failure(e),
        e @ ReportError::TooManyMoves { .. } => Failure(Kind::TooLarge, e.to_string()),
        e @ ReportError::Notation(_) => Failure(Kind::Rules, e.to_string()),
    }
}

fn driver_failure(e: DriverError) -> Failure {
    match e {
        DriverError::Rules(e) => rules_failure(e),
        DriverError::Solve(e) => solve_failure(e),
        DriverError::Refused(m) => Failure(Kind::TooLarge, m),
        e @ DriverError::Io { .. } => Failure(Kind::File, e.to_string()),
        e => Failure(Kind::Other, e.to_string()),
    }
}

fn atlas_failure(e: AtlasError) -> Failure {
    match e {
        AtlasError::TooLarge(m) => Failure(Kind::TooLarge, m),
        e => Failure(Kind::Rules, e.to_string()),
    }
}

/// A JSON document as Python objects: objects become `dict`s (keys in the
/// document's order), arrays `list`s, numbers `int` or `float`.
fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_bound_py_any(py)?
            } else if let Some(u) = n.as_u64() {
                u.into_bound_py_any(py)?
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?
            }
        }
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// The ruleset named by a Python argument: a `Ruleset`, or a variant id.
fn ruleset_of(arg: Option<&Bound<'_, PyAny>>) -> PyResult<Ruleset> {
    let Some(arg) = arg else {
        return Ok(Preset::Standard.ruleset());
    };
    if let Ok(r) = arg.cast::<PyRuleset>() {
        return Ok(r.get().rules.clone());
    }
    if let Ok(id) = arg.extract::<String>() {
        return Ok(Ruleset::from_variant_id(&id).map_err(rules_failure)?);
    }
    Err(PyTypeError::new_err(format!(
        "the variant must be a variant id (a str such as \"standard\" or \"rollover.h3.f7\") \
         or a chopsticks_toolkit.Ruleset, not {}",
        arg.get_type().name()?
    )))
}

/// A whole number from a Python argument, between `low` and `high`, or a
/// `RulesError` (a `ValueError`) that names the argument: Python's own
/// `OverflowError` says neither which argument nor what is allowed.
fn whole(arg: &Bound<'_, PyAny>, name: &str, low: i128, high: i128) -> PyResult<i128> {
    if arg.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "`{name}` is a whole number, not a bool"
        )));
    }
    // An int, or any integer Python's `operator.index` takes (numpy's).
    let index;
    let n = match arg.cast::<pyo3::types::PyInt>() {
        Ok(n) => n,
        Err(_) => {
            index = arg
                .py()
                .import("operator")?
                .call_method1("index", (arg,))
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "`{name}` is a whole number (int), not {}",
                        arg.get_type()
                            .name()
                            .map(|n| n.to_string())
                            .unwrap_or_default()
                    ))
                })?;
            index.cast::<pyo3::types::PyInt>()?
        }
    };
    match n.extract::<i128>() {
        Ok(v) if (low..=high).contains(&v) => Ok(v),
        _ => Err(Failure(
            Kind::Rules,
            format!("`{name}` must be a whole number from {low} to {high}, not {n}"),
        )
        .into()),
    }
}

/// A list of hands from Python (`[1, 2]`), each from 0 to `high`.
fn hand_list(arg: &Bound<'_, PyAny>, name: &str, high: i128) -> PyResult<Vec<u32>> {
    if arg.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "`{name}` is a list of whole numbers (such as [1, 2]), not a str"
        )));
    }
    let items: Vec<Bound<'_, PyAny>> = arg.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "`{name}` is a list of whole numbers (such as [1, 2])"
        ))
    })?;
    items
        .iter()
        .map(|x| whole(x, name, 0, high).map(|v| v as u32))
        .collect()
}

/// The position named by a Python argument (the start when `None`).
/// A position given from Python: its text in any notation, or a `Position`.
#[derive(FromPyObject)]
enum PositionArg {
    Text(String),
    Position(PyPosition),
}

impl PositionArg {
    /// The position's text, for `rules`: a `Position` of other rules is
    /// refused.
    fn text(&self, rules: &Ruleset) -> PyResult<&str> {
        match self {
            PositionArg::Text(t) => Ok(t),
            PositionArg::Position(p) if &p.rules == rules => Ok(&p.id),
            PositionArg::Position(p) => Err(Failure(
                Kind::Rules,
                format!(
                    "the position {} is of the variant {}, not {}",
                    p.id,
                    p.rules.variant_id(),
                    rules.variant_id()
                ),
            )
            .into()),
        }
    }
}

fn seated_of(rules: &Ruleset, text: Option<&str>) -> Result<SeatedPosition, Failure> {
    match text {
        None => Ok(SeatedPosition::start(rules)),
        Some(t) => SeatedPosition::parse(t, rules).map_err(rules_failure),
    }
}

fn printed(rules: &Ruleset, notation: Option<&str>) -> Result<Option<Notation>, Failure> {
    chopsticks_report::printed_notation(notation, rules).map_err(report_failure)
}

/// A ruleset of Chopsticks: players, hands, fingers, overflow and every switch.
/// Read from a variant id (`"standard"`, `"rollover.h3.f7"`,
/// `"standard.p4.teams"`: `chopsticks rules --list` names the presets), or
/// from keywords over a preset: `Ruleset(preset="standard", hands=3,
/// fingers=7, rollover=True, self_attack=False)`, every rule option of the
/// command line as a keyword (its flag with `_` for `-`: `transfer`,
/// `even_divide`, `misere`, `teams`, …; `overflow="rollover"`,
/// `pass_splits="live"`), applied as the id's overrides are.
#[pyclass(name = "Ruleset", module = "chopsticks_toolkit", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyRuleset {
    rules: Ruleset,
}

/// Hands for everybody (`3`) or one count per seat (`[1, 3]`).
#[derive(FromPyObject)]
enum HandsArg {
    All(u64),
    PerSeat(Vec<u64>),
}

/// The variant-id token of one rule keyword (`self_attack=False`:
/// `no-self-attack`; `overflow="rollover"`: `rollover`).
fn rule_token(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    use chopsticks_rules::options::{choices, switches};
    let name = key.replace('_', "-");
    let unknown = || {
        let mut keywords: Vec<String> = switches().map(|s| s.token.replace('-', "_")).collect();
        keywords.extend(choices().map(|c| c.name.replace('-', "_")));
        keywords.extend(["rollover".into(), "cutoff".into()]);
        PyTypeError::new_err(format!(
            "Ruleset() got an unknown rule option `{key}`; the options are preset, players, \
             hands, fingers, {}",
            keywords.join(", ")
        ))
    };
    if let Some(s) = switches().find(|s| s.token == name) {
        let on: bool = value
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("`{key}` is True or False")))?;
        return Ok(s.word(on));
    }
    if let Some(c) = choices().find(|c| c.name == name || c.field == key) {
        let given: String = value.extract().map_err(|_| {
            let values: Vec<&str> = c.values.iter().map(|v| v.value).collect();
            PyTypeError::new_err(format!("`{key}` is one of {}", values.join(", ")))
        })?;
        return match c
            .values
            .iter()
            .find(|v| v.value == given || v.token == given)
        {
            Some(v) => Ok(v.token.to_string()),
            None => {
                let values: Vec<&str> = c.values.iter().map(|v| v.value).collect();
                Err(PyErr::from(rules_failure(
                    chopsticks_rules::RulesError::Ruleset(format!(
                        "`{key}` is one of {}, not {given:?}",
                        values.join(", ")
                    )),
                )))
            }
        };
    }
    // A value of a choice as its own keyword: `rollover=True`.
    if let Some(v) = choices()
        .flat_map(|c| c.values.iter())
        .find(|v| v.token == name)
    {
        let on: bool = value
            .extract()
            .map_err(|_| PyTypeError::new_err(format!("`{key}` is True")))?;
        if !on {
            return Err(PyTypeError::new_err(format!(
                "`{key}=False` says nothing: give the value you want (`overflow=\"cutoff\"`)"
            )));
        }
        return Ok(v.token.to_string());
    }
    Err(unknown())
}

#[pymethods]
impl PyRuleset {
    #[new]
    #[pyo3(signature = (variant = None, *, preset = None, players = None, hands = None, fingers = None, **options))]
    fn new(
        variant: Option<&str>,
        preset: Option<&str>,
        players: Option<u64>,
        hands: Option<HandsArg>,
        fingers: Option<u64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyRuleset> {
        let mut id = match (variant, preset) {
            (Some(_), Some(_)) => {
                return Err(PyTypeError::new_err(
                    "Ruleset() takes a variant id or a preset, not both",
                ))
            }
            (Some(v), None) => v.to_string(),
            (None, Some(p)) => {
                if p.contains('.') {
                    return Err(PyErr::from(rules_failure(
                        chopsticks_rules::RulesError::Ruleset(format!(
                        "`preset` is a preset's name ({}); a variant id goes first: Ruleset({p:?})",
                        Preset::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
                    )),
                    )));
                }
                p.to_string()
            }
            (None, None) => "standard".to_string(),
        };
        if let Some(p) = players {
            id.push_str(&format!(".p{p}"));
        }
        match hands {
            Some(HandsArg::All(h)) => id.push_str(&format!(".h{h}")),
            Some(HandsArg::PerSeat(h)) => {
                let counts: Vec<String> = h.iter().map(u64::to_string).collect();
                id.push_str(&format!(".h{}", counts.join("-")));
            }
            None => {}
        }
        if let Some(f) = fingers {
            id.push_str(&format!(".f{f}"));
        }
        if let Some(options) = options {
            for (key, value) in options.iter() {
                let key: String = key.extract()?;
                id.push('.');
                id.push_str(&rule_token(&key, &value)?);
            }
        }
        Ok(PyRuleset {
            rules: Ruleset::from_variant_id(&id).map_err(rules_failure)?,
        })
    }

    /// The canonical variant id (`--variant` reads it).
    #[getter]
    fn variant(&self) -> String {
        self.rules.variant_id()
    }

    /// The ruleset in words.
    #[getter]
    fn description(&self) -> String {
        self.rules.describe()
    }

    /// The number of players.
    #[getter]
    fn players(&self) -> usize {
        self.rules.players()
    }

    /// The number of hands of each player, Player 1 first.
    #[getter]
    fn hands(&self) -> Vec<usize> {
        self.rules.hands.clone()
    }

    /// F: a hand reaching F fingers is out (cutoff) or wraps round (rollover).
    #[getter]
    fn fingers(&self) -> u32 {
        self.rules.fingers
    }

    /// The number of positions of the dense index (what a solve stores).
    #[getter]
    fn positions(&self) -> PyResult<u64> {
        Ok(PositionIndex::new(&self.rules)
            .map_err(rules_failure)?
            .count())
    }

    /// `{"variant", "description", "ruleset"}`: the keys every JSON document
    /// about this variant carries (`ruleset`: every rule as a field).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &chopsticks_report::with_variant(&self.rules, json!({})))
    }

    /// The start position, as a seated id (or in `notation`: "compact",
    /// "dashed", "paper").
    #[pyo3(signature = (notation = None))]
    fn start(&self, notation: Option<&str>) -> PyResult<String> {
        let printed = printed(&self.rules, notation)?;
        Ok(SeatedPosition::start(&self.rules)
            .write(&self.rules, printed)
            .map_err(rules_failure)?)
    }

    /// A position read in any notation (the start when `None`): its seated id,
    /// the player to move, every player's hands, whether the game is over, and
    /// the position in every notation that can write it (`None` where one
    /// cannot).
    #[pyo3(signature = (position = None))]
    fn position<'py>(
        &self,
        py: Python<'py>,
        position: Option<PositionArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = position.as_ref().map(|p| p.text(&self.rules)).transpose()?;
        let seated = seated_of(&self.rules, position)?;
        let mut notations = serde_json::Map::new();
        notations.insert(
            "seated".into(),
            json!(seated.to_text(&self.rules).map_err(rules_failure)?),
        );
        for n in [Notation::Compact, Notation::Dashed, Notation::Paper] {
            notations.insert(
                n.name().into(),
                json!(seated.write(&self.rules, Some(n)).ok()),
            );
        }
        let value = json!({
            "position": seated.to_text(&self.rules).map_err(rules_failure)?,
            "player": seated.mover().number(),
            "hands": seated.hands_by_seat(),
            "terminal": seated.position().is_terminal(&self.rules),
            "notations": notations,
        });
        to_python(py, &chopsticks_report::with_variant(&self.rules, value))
    }

    /// The legal moves of a position (the start when `None`) and the positions
    /// they lead to: `chopsticks moves --json`.
    #[pyo3(signature = (position = None, *, notation = None))]
    fn moves<'py>(
        &self,
        py: Python<'py>,
        position: Option<PositionArg>,
        notation: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = position.as_ref().map(|p| p.text(&self.rules)).transpose()?;
        let printed = printed(&self.rules, notation)?;
        let seated = seated_of(&self.rules, position)?;
        let value =
            chopsticks_report::moves(&self.rules, &seated, printed).map_err(report_failure)?;
        to_python(py, &value)
    }

    /// The position after a move (`"tap 1→2"`, `"t12"`, `"split 13→22"`, …),
    /// as a seated id (or in `notation`).
    #[pyo3(signature = (position, move_text, *, notation = None))]
    fn play(
        &self,
        position: PositionArg,
        move_text: &str,
        notation: Option<&str>,
    ) -> PyResult<String> {
        let position = position.text(&self.rules)?;
        let printed = printed(&self.rules, notation)?;
        let seated = seated_of(&self.rules, Some(position))?;
        let (_, after) = seated
            .find_move(&self.rules, move_text)
            .map_err(rules_failure)?;
        Ok(after.write(&self.rules, printed).map_err(rules_failure)?)
    }

    /// A position (any notation; the start when `None`) as a `Position`,
    /// which a notebook draws.
    #[pyo3(signature = (position = None))]
    fn at(&self, position: Option<PositionArg>) -> PyResult<PyPosition> {
        let position = position.as_ref().map(|p| p.text(&self.rules)).transpose()?;
        PyPosition::of(self.rules.clone(), seated_of(&self.rules, position)?, None)
    }

    /// Every preset: `[{"variant", "description", "ruleset"}]`.
    #[staticmethod]
    fn presets<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list: Vec<Value> = Preset::ALL
            .iter()
            .map(|p| {
                json!({"variant": p.name(), "description": p.description(), "ruleset": p.ruleset()})
            })
            .collect();
        to_python(py, &Value::Array(list))
    }

    fn __repr__(&self) -> String {
        format!("chopsticks_toolkit.Ruleset({:?})", self.rules.variant_id())
    }

    fn __str__(&self) -> String {
        self.rules.describe()
    }
}

/// One position of a ruleset, drawn inline by Jupyter (`_repr_svg_`): its
/// seated id, the player to move, every player's hands. Made by
/// `Position(position, variant)`, `Ruleset.at(position)` or, with its value
/// as the caption, `Solution.board(position)`.
#[pyclass(name = "Position", module = "chopsticks_toolkit", frozen)]
#[derive(Clone)]
struct PyPosition {
    rules: Ruleset,
    seated: SeatedPosition,
    /// Its seated id.
    id: String,
    caption: Option<String>,
}

impl PyPosition {
    fn of(rules: Ruleset, seated: SeatedPosition, caption: Option<String>) -> PyResult<PyPosition> {
        let id = seated.to_text(&rules).map_err(rules_failure)?;
        Ok(PyPosition {
            rules,
            seated,
            id,
            caption,
        })
    }

    fn id(&self) -> PyResult<String> {
        Ok(self.id.clone())
    }
}

#[pymethods]
impl PyPosition {
    /// A position read in any notation (the start when `None`) of a variant
    /// (a variant id or a `Ruleset`; the standard game when `None`).
    #[new]
    #[pyo3(signature = (position = None, variant = None))]
    fn new(
        position: Option<PositionArg>,
        variant: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPosition> {
        if let (Some(PositionArg::Position(p)), None) = (&position, variant) {
            return Ok(PyPosition {
                caption: None,
                ..p.clone()
            });
        }
        let rules = ruleset_of(variant)?;
        let position = position.as_ref().map(|p| p.text(&rules)).transpose()?;
        let seated = seated_of(&rules, position)?;
        PyPosition::of(rules, seated, None)
    }

    /// Its seated id (`2_1312`).
    #[getter(id)]
    fn get_id(&self) -> PyResult<String> {
        self.id()
    }

    /// The player to move, from 1.
    #[getter]
    fn player(&self) -> usize {
        self.seated.mover().number()
    }

    /// Every player's hands, Player 1's first.
    #[getter]
    fn hands(&self) -> Vec<Vec<u32>> {
        self.seated.hands_by_seat()
    }

    /// Whether the game is over.
    #[getter]
    fn terminal(&self) -> bool {
        self.seated.position().is_terminal(&self.rules)
    }

    /// The ruleset.
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset {
            rules: self.rules.clone(),
        }
    }

    /// The caption drawn under the board (`Solution.board`'s value), or None.
    #[getter]
    fn caption(&self) -> Option<String> {
        self.caption.clone()
    }

    /// The position after a move (`"tap 1→2"`, `"t12"`, `"split 13→22"`, …).
    fn play(&self, move_text: &str) -> PyResult<PyPosition> {
        let (_, after) = self
            .seated
            .find_move(&self.rules, move_text)
            .map_err(rules_failure)?;
        PyPosition::of(self.rules.clone(), after, None)
    }

    /// Its legal moves and where they lead: `chopsticks moves --json`.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value =
            chopsticks_report::moves(&self.rules, &self.seated, None).map_err(report_failure)?;
        to_python(py, &value)
    }

    /// The board as an SVG document: a row of hands per player, the player
    /// to move marked, the id and the caption beneath.
    fn svg(&self) -> String {
        chopsticks_learn::board::board_svg(&self.rules, &self.seated, self.caption.as_deref())
    }

    /// What Jupyter draws for the position.
    fn _repr_svg_(&self) -> String {
        self.svg()
    }

    fn __str__(&self) -> PyResult<String> {
        self.id()
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!(
            "chopsticks_toolkit.Position({:?}, {:?})",
            self.id()?,
            self.rules.variant_id()
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPosition>()
            .is_ok_and(|o| o.get().rules == self.rules && o.get().seated == self.seated)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.rules.hash(&mut h);
        self.seated.hash(&mut h);
        h.finish()
    }
}

/// Held by the work that places scratch files (a solve's checkpoints, an
/// exploration on disk): their names are the variant's and this process's, so
/// two threads of one interpreter must not run such work at once. The work
/// itself uses every core.
static SCRATCH: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn scratch_lock() -> std::sync::MutexGuard<'static, ()> {
    SCRATCH.lock().unwrap_or_else(|e| e.into_inner())
}

/// Progress of long work: on standard error with `progress=True`, to a
/// callable with `progress=f` (each event a dict, see [`Progress::event`]);
/// the announcement of long or out-of-core work (its memory and time
/// estimate) on standard error unless `quiet`.
struct Progress {
    shown: bool,
    quiet: bool,
    /// The callable given as `progress`, called on the solving thread with the
    /// interpreter lock taken for the call.
    callback: Option<Py<PyAny>>,
    /// The phase under way and its total, for the callable's `advance`.
    phase: std::sync::Mutex<(String, Option<u64>)>,
    /// The first exception the callable raised: the solve is stopped and the
    /// exception raised in its place.
    raised: std::sync::Mutex<Option<PyErr>>,
}

impl Progress {
    fn new(progress: Option<&Bound<'_, PyAny>>, quiet: bool) -> PyResult<Progress> {
        let (shown, callback) = match progress {
            None => (false, None),
            Some(p) if p.is_callable() => (false, Some(p.clone().unbind())),
            Some(p) if p.is_instance_of::<pyo3::types::PyBool>() => (p.is_truthy()?, None),
            Some(p) => {
                return Err(PyTypeError::new_err(format!(
                    "`progress` is True, False, None or a callable, not {}",
                    p.get_type().name()?
                )))
            }
        };
        Ok(Progress {
            shown,
            quiet,
            callback,
            ..Progress::quiet()
        })
    }

    /// Nothing shown but warnings.
    fn quiet() -> Progress {
        Progress {
            shown: false,
            quiet: true,
            callback: None,
            phase: std::sync::Mutex::new((String::new(), None)),
            raised: std::sync::Mutex::new(None),
        }
    }

    /// Calls the callable with `{"event": kind, "phase", "done", "total",
    /// "message"}` (`kind`: "begin", "advance", "end" or "announce"); an
    /// exception it raises stops the solve.
    fn event(&self, kind: &str, done: Option<u64>, message: Option<&str>) {
        let Some(callback) = &self.callback else {
            return;
        };
        let (phase, total) = self.phase.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Python::attach(|py| {
            let result = (|| -> PyResult<()> {
                let event = PyDict::new(py);
                event.set_item("event", kind)?;
                event.set_item("phase", (!phase.is_empty()).then_some(phase))?;
                event.set_item("done", done)?;
                event.set_item("total", total)?;
                event.set_item("message", message)?;
                callback.call1(py, (event,))?;
                Ok(())
            })();
            if let Err(e) = result {
                let mut raised = self.raised.lock().unwrap_or_else(|e| e.into_inner());
                if raised.is_none() {
                    *raised = Some(e);
                }
                chopsticks_solve::stop::request();
            }
        });
    }

    /// The exception the callable raised, if it did.
    fn take_raised(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

impl Events for Progress {
    fn announce(&self, text: &str) {
        // The command line's words for its options, as this call spells them.
        let text = &text
            .replace("without --save FILE", "without save=")
            .replace("--save FILE", "save=");
        if self.callback.is_some() {
            self.event("announce", None, Some(text));
            return;
        }
        if !self.quiet {
            let how = if self.shown || self.callback.is_some() {
                "progress follows"
            } else {
                "progress=True shows its progress"
            };
            eprintln!(
                "{}",
                text.replace("progress follows on stderr (--quiet hides it)", how)
            );
        }
    }
    fn begin(&self, what: &str, total: Option<u64>) {
        if self.shown {
            eprintln!("{what} …");
        }
        *self.phase.lock().unwrap_or_else(|e| e.into_inner()) = (what.to_string(), total);
        self.event("begin", Some(0), None);
    }
    fn advance(&self, done: u64, message: &str) {
        self.event("advance", Some(done), Some(message));
    }
    fn end(&self) {
        self.event("end", None, None);
    }
    fn warn(&self, line: &str) {
        // Warnings are shown whatever `progress` says, as on the command line.
        eprintln!("warning: {line}");
    }
}

/// Runs `work` on a thread of its own while this one waits with the
/// interpreter lock released, taking it every 50 ms to run Python's signal
/// handlers: when one raises (Ctrl-C's `KeyboardInterrupt`), the solve is
/// asked to stop ([`chopsticks_solve::stop`]), is waited for (it ends at
/// its next level, removing what nothing resumes from), and the exception
/// is raised. An exception of the progress callable is raised the same way.
fn interruptible<T: Send>(
    py: Python<'_>,
    events: &Progress,
    work: impl FnOnce() -> Result<T, Failure> + Send,
) -> PyResult<T> {
    chopsticks_solve::stop::clear();
    std::thread::scope(|scope| {
        let worker = scope.spawn(work);
        let mut signal: Option<PyErr> = None;
        while !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(std::time::Duration::from_millis(50)));
            if signal.is_none() {
                if let Err(e) = py.check_signals() {
                    chopsticks_solve::stop::request();
                    signal = Some(e);
                }
            }
        }
        // Joined without the lock: the worker may be waiting for it to call
        // the progress callable one last time.
        let result = py.detach(|| worker.join());
        chopsticks_solve::stop::clear();
        if let Some(e) = signal.or_else(|| events.take_raised()) {
            return Err(e);
        }
        match result {
            Ok(result) => result.map_err(PyErr::from),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// A solved table of one ruleset: every position's value (win, lose or draw
/// for the player to move) with its remoteness. Made by `chopsticks_toolkit.solve` or
/// `chopsticks_toolkit.load`.
#[pyclass(name = "Solution", module = "chopsticks_toolkit", frozen)]
struct PySolution {
    solved: Solved,
    /// Every puzzle reachable from the start, found when first asked for.
    puzzles: OnceLock<PuzzleSet>,
}

impl PySolution {
    /// The position asked about, for a table that is still the one opened: a
    /// file read in place that changed since is refused (its blocks would no
    /// longer be those checked).
    fn seated(&self, position: Option<&str>) -> Result<SeatedPosition, Failure> {
        self.unchanged()?;
        seated_of(&self.solved.rules, position)
    }

    /// `start..stop` of the rows of the table, checked: the whole table
    /// when neither is given.
    fn rows(
        &self,
        start: Option<&Bound<'_, PyAny>>,
        stop: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(u64, u64)> {
        let count = self.solved.solution.count();
        let stop = match stop {
            Some(s) => whole(s, "stop", 0, count as i128)? as u64,
            None => count,
        };
        let start = match start {
            Some(s) => whole(s, "start", 0, stop as i128)? as u64,
            None => 0,
        };
        Ok((start, stop))
    }

    /// Refuses `rows` rows that do not fit in `memory` (by default the
    /// memory a job may use).
    fn refuse_beyond_memory(
        &self,
        rows: u64,
        pandas: bool,
        memory: Option<u64>,
    ) -> Result<(), Failure> {
        let row = frames::row_bytes(&self.solved.rules)
            + if pandas { frames::PANDAS_ROW_BYTES } else { 0 };
        let needed = rows.saturating_mul(row);
        let allowed = memory.unwrap_or_else(chopsticks_driver::estimate::default_budget);
        if needed > allowed {
            return Err(Failure(
                Kind::TooLarge,
                format!(
                    "{} rows take about {} as {}, more than the {} allowed{}: take them a \
                     chunk at a time with chunks(rows), or a range with start and stop",
                    chopsticks_rules::text::count(rows),
                    chopsticks_rules::text::human_bytes(needed),
                    if pandas { "a DataFrame" } else { "arrays" },
                    chopsticks_rules::text::human_bytes(allowed),
                    if memory.is_none() {
                        " (three quarters of the memory available)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        Ok(())
    }

    /// The rows asked for by `start`, `stop` and `memory` as given from
    /// Python (`to_numpy`, `to_pandas`: with the positions' texts).
    fn rows_asked(
        &self,
        py: Python<'_>,
        start: Option<&Bound<'_, PyAny>>,
        stop: Option<&Bound<'_, PyAny>>,
        memory: Option<&Bound<'_, PyAny>>,
        positions: bool,
    ) -> PyResult<frames::Columns> {
        let (start, stop) = self.rows(start, stop)?;
        self.columns(py, start, stop, positions, memory_arg(memory)?)
    }

    /// The rows `start..stop`, computed without the interpreter lock.
    fn columns(
        &self,
        py: Python<'_>,
        start: u64,
        stop: u64,
        positions: bool,
        memory: Option<u64>,
    ) -> PyResult<frames::Columns> {
        self.unchanged()?;
        self.refuse_beyond_memory(stop - start, positions, memory)?;
        numpy_ready(py)?;
        let solution = &self.solved.solution;
        interruptible(py, &Progress::quiet(), || {
            frames::Columns::of(solution, start, stop, positions).map_err(solve_failure)
        })
    }

    fn unchanged(&self) -> Result<(), Failure> {
        self.solved.check_source().map_err(|what| {
            Failure(
                Kind::File,
                format!(
                    "the saved solution {} changed since it was loaded: it {what}; \
                     load it again",
                    self.solved
                        .path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                ),
            )
        })
    }
}

#[pymethods]
impl PySolution {
    /// The ruleset solved.
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset {
            rules: self.solved.rules.clone(),
        }
    }

    /// The variant id of the ruleset solved.
    #[getter]
    fn variant(&self) -> String {
        self.solved.rules.variant_id()
    }

    /// The number of positions in the table.
    #[getter]
    fn positions(&self) -> u64 {
        self.solved.solution.count()
    }

    /// What the values mean: "two-player", "coalition" or "teams".
    #[getter]
    fn concept(&self) -> PyResult<String> {
        Ok(serde_json::to_value(self.solved.solution.concept())
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default())
    }

    /// Whether the table holds remoteness (not solved values-only).
    #[getter]
    fn remoteness(&self) -> bool {
        self.solved.solution.has_remoteness()
    }

    /// Seconds the solve took (0 for a table read from a file).
    #[getter]
    fn solve_seconds(&self) -> f64 {
        self.solved.solve_time.as_secs_f64()
    }

    /// The file the table was read from, or `None`.
    #[getter]
    fn path(&self) -> Option<String> {
        self.solved.path().map(|p| p.display().to_string())
    }

    /// A position's value for every player and every move's value, best first
    /// (the start when `position` is `None`): `chopsticks query --json`. With
    /// `lines`, the optimal line from the position and after each move.
    #[pyo3(signature = (position = None, *, lines = false, notation = None))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        position: Option<PositionArg>,
        lines: bool,
        notation: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = position
            .as_ref()
            .map(|p| p.text(&self.solved.rules))
            .transpose()?;
        let printed = printed(&self.solved.rules, notation)?;
        let seated = self.seated(position)?;
        let value = py
            .detach(|| chopsticks_report::query(&self.solved, &seated, printed, lines))
            .map_err(report_failure)?;
        to_python(py, &value)
    }

    /// The value of a position for the player to move, without its moves:
    /// `{"position", "player", "value", "remoteness"}`.
    #[pyo3(signature = (position = None))]
    fn outcome<'py>(
        &self,
        py: Python<'py>,
        position: Option<PositionArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = position
            .as_ref()
            .map(|p| p.text(&self.solved.rules))
            .transpose()?;
        let seated = self.seated(position)?;
        let value = py.detach(|| -> Result<Value, Failure> {
            self.solved
                .check_lines(seated.position())
                .map_err(solve_failure)?;
            let outcome = self
                .solved
                .solution
                .outcome(seated.position())
                .map_err(solve_failure)?;
            let mut v = chopsticks_report::outcome_json(&outcome);
            v["position"] = json!(seated.to_text(&self.solved.rules).map_err(rules_failure)?);
            v["player"] = json!(seated.mover().number());
            Ok(v)
        })?;
        to_python(py, &value)
    }

    /// The values of a game in progress, under its repetition rule
    /// (`repetitions`: the count that draws, 3 by default, or `"none"`):
    /// `history` is the game's positions so far, oldest first (any notation,
    /// each following the one before by a legal move). As the page's and the
    /// API's game: the game's value of the position now and of every move,
    /// the table's beside them (`table_value`), whether the game is over
    /// (`end`), how often the position has come up (`times_seen`).
    #[pyo3(signature = (history, *, repetitions = None))]
    fn game<'py>(
        &self,
        py: Python<'py>,
        history: Vec<String>,
        repetitions: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let rules = &self.solved.rules;
        let repetitions = match repetitions {
            None => chopsticks_learn::Repetitions::default(),
            Some(r) => {
                let text = if let Ok(n) = r.extract::<i64>() {
                    n.to_string()
                } else if let Ok(t) = r.extract::<String>() {
                    t
                } else {
                    return Err(PyTypeError::new_err(
                        "repetitions is a count (int, at least 2) or \"none\"",
                    ));
                };
                chopsticks_learn::Repetitions::parse(&text)
                    .map_err(|e| Failure(Kind::Rules, format!("repetitions: {e}")))?
            }
        };
        if history.is_empty() {
            return Err(Failure(
                Kind::Rules,
                "the game's history has no position: give at least the one now".into(),
            )
            .into());
        }
        const MOST: usize = 100_000;
        if history.len() > MOST {
            return Err(Failure(
                Kind::TooLarge,
                format!(
                    "the game's history has {} positions; at most {MOST} are read",
                    history.len()
                ),
            )
            .into());
        }
        let positions = history
            .iter()
            .map(|p| SeatedPosition::parse(p, rules).map_err(rules_failure))
            .collect::<Result<Vec<_>, Failure>>()?;
        let history = chopsticks_learn::History::from_positions(positions, repetitions)
            .expect("at least one position");
        self.unchanged()?;
        let value = py
            .detach(|| chopsticks_report::game(&self.solved, &history))
            .map_err(report_failure)?;
        to_python(py, &value)
    }

    /// The optimal line from a position (the start when `None`), both sides
    /// playing their best: to the end of the game, or for a draw to the first
    /// position met again.
    #[pyo3(signature = (position = None))]
    fn line<'py>(
        &self,
        py: Python<'py>,
        position: Option<PositionArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = position
            .as_ref()
            .map(|p| p.text(&self.solved.rules))
            .transpose()?;
        let seated = self.seated(position)?;
        let value = py
            .detach(|| chopsticks_report::line(&self.solved, &seated))
            .map_err(report_failure)?;
        to_python(py, &value)
    }

    /// A review of a game: every move with its value before and after,
    /// mistakes marked, the best moves instead and the refutation lines
    /// (`chopsticks review --json`). `game` is a game record (the text
    /// `chopsticks play --record` and the page write) or a list of moves from
    /// the start.
    #[pyo3(signature = (game, *, mistakes_only = false, lines = true))]
    fn review<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        mistakes_only: bool,
        lines: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let text = if let Ok(text) = game.extract::<String>() {
            text
        } else if let Ok(moves) = game.extract::<Vec<String>>() {
            moves.join("\n")
        } else {
            return Err(PyTypeError::new_err(format!(
                "the game must be a game record (str) or a list of moves, each a str \
                 (\"tap 1→2\"), not {}",
                game.get_type().name()?
            )));
        };
        self.unchanged()?;
        let rules = &self.solved.rules;
        let record = GameRecord::parse(&text).map_err(learn_failure)?;
        let record_rules = record.rules(Some(rules)).map_err(learn_failure)?;
        let replay = record.replay(&record_rules).map_err(learn_failure)?;
        let shape = chopsticks_report::ReviewShape {
            mistakes_only,
            no_lines: !lines,
        };
        let value = py
            .detach(|| chopsticks_report::review(&self.solved, &replay, shape))
            .map_err(report_failure)?;
        to_python(py, &value)
    }

    /// Puzzles: positions reachable from the start where at most half of the
    /// moves win (`kind="win"`) or keep a draw (`"hold"`), each with its
    /// solution to the end, graded 1 (beginner) to 5 (expert); `count` of them chosen by `seed`, as `chopsticks puzzles
    /// --json`. `difficulty` is a grade (1–5 or its name) or a pair
    /// `(lowest, highest)`.
    #[pyo3(signature = (count = None, *, seed = None, kind = "any", difficulty = None, hide_answers = false))]
    fn puzzles<'py>(
        &self,
        py: Python<'py>,
        count: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
        kind: &str,
        difficulty: Option<&Bound<'py, PyAny>>,
        hide_answers: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let count = match count {
            Some(c) => whole(c, "count", 0, i64::MAX as i128)? as usize,
            None => 10,
        };
        let seed = match seed {
            Some(c) => whole(c, "seed", 0, u64::MAX as i128)? as u64,
            None => 1,
        };
        let kind = match kind {
            "any" => None,
            "win" => Some(PuzzleKind::Win),
            "hold" => Some(PuzzleKind::Hold),
            other => {
                return Err(Failure(
                    Kind::Rules,
                    format!("unknown puzzle kind `{other}`; use win, hold or any"),
                )
                .into())
            }
        };
        let difficulty = difficulty.map(grades).transpose()?;
        self.unchanged()?;
        if !self.solved.solution.has_remoteness() {
            return Err(solve_failure(SolveError::NoRemoteness).into());
        }
        let choice = chopsticks_report::PuzzleChoice {
            filter: Filter { kind, difficulty },
            count,
            seed,
            hide_answers,
        };
        let value = py.detach(|| -> Result<Value, Failure> {
            if self.puzzles.get().is_none() {
                // Finding puzzles reads every reachable position: a table read
                // from a file is checked whole first.
                if self.solved.needs_line_checks() {
                    self.solved.check_whole(&|_| {}).map_err(solve_failure)?;
                }
                let graph = self.solved.graph().map_err(solve_failure)?;
                let start = graph.index_of(&Position::start(&self.solved.rules));
                let set = PuzzleSet::find(graph, &self.solved.solution, start, &|_| {})
                    .map_err(learn_failure)?;
                let _ = self.puzzles.set(set);
            }
            let set = self.puzzles.get().expect("found above");
            chopsticks_report::puzzle_set(&self.solved, set, &choice).map_err(report_failure)
        })?;
        to_python(py, &value)
    }

    /// The puzzle at one position, or a `RulesError` saying why it is not one
    /// (`chopsticks puzzles --position P --json`); with `played` (the player's
    /// moves so far, by name) its `progress`, as `--played` gives it.
    #[pyo3(signature = (position, *, hide_answers = false, played = None))]
    fn puzzle<'py>(
        &self,
        py: Python<'py>,
        position: PositionArg,
        hide_answers: bool,
        played: Option<Vec<String>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let position = position.text(&self.solved.rules)?;
        let seated = self.seated(Some(position))?;
        let value = py
            .detach(|| {
                chopsticks_report::puzzle_at(&self.solved, &seated, hide_answers, played.as_deref())
            })
            .map_err(report_failure)?;
        to_python(py, &value)
    }

    /// The counts of wins, losses, draws and finished games, the start's value
    /// for every player and the longest win (`chopsticks solve --json`'s
    /// summary keys). Counted over the positions reachable from the start
    /// (`reachable=True`, the default up to 100 million positions) or over
    /// the whole index.
    #[pyo3(signature = (*, reachable = None))]
    fn summary<'py>(
        &self,
        py: Python<'py>,
        reachable: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.unchanged()?;
        let solved = &self.solved;
        let explored =
            reachable.unwrap_or(solved.solution.count() <= chopsticks_report::EXPLORE_BY_DEFAULT);
        let value = py.detach(|| -> Result<Value, Failure> {
            let _scratch = scratch_lock();
            // The counts read every position counted: a table read from a file
            // is checked whole first, as for puzzles.
            if solved.needs_line_checks() {
                solved.check_whole(&|_| {}).map_err(solve_failure)?;
            }
            let rules = &solved.rules;
            let start = SeatedPosition::start(rules);
            let dir = explored.then(|| {
                chopsticks_driver::scratch::Scratch::of(
                    rules,
                    None,
                    chopsticks_driver::scratch::Kind::Explore,
                )
                .dir
            });
            let reach = match &dir {
                Some(dir) => chopsticks_driver::Reach::Explored {
                    on_disk: false,
                    memory: None,
                    dir,
                },
                None => chopsticks_driver::Reach::Index,
            };
            let of =
                chopsticks_driver::summarise(solved, start.position(), reach, &Progress::quiet())
                    .map_err(driver_failure)?;
            let graph = solved.graph().map_err(solve_failure)?;
            let notation = Notation::default_for(rules);
            let longest = match of.summary.longest_win {
                Some((i, r)) => Some((
                    graph
                        .position(i)
                        .to_notation(rules, notation)
                        .map_err(rules_failure)?,
                    r,
                )),
                None => None,
            };
            let text = start.to_text(rules).map_err(rules_failure)?;
            let mut v = chopsticks_report::solve_summary(
                solved,
                &of.summary,
                explored,
                &start,
                &text,
                longest,
            );
            v["solve_seconds"] = json!(solved.solve_time.as_secs_f64());
            Ok(chopsticks_report::with_variant(rules, v))
        })?;
        to_python(py, &value)
    }

    /// Saves the table to `path` (the format `chopsticks solve --save` writes
    /// and `--db` reads), through a temporary file renamed at the end.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| file::save(&self.solved.solution, &path))
            .map_err(solve_failure)?;
        Ok(())
    }

    /// Checks every position of the table against the rules (`chopsticks
    /// check`); raises `SolutionFileError` at the first inconsistency.
    fn check(&self, py: Python<'_>) -> PyResult<()> {
        self.unchanged()?;
        py.detach(|| self.solved.check_whole(&|_| {}))
            .map_err(solve_failure)?;
        Ok(())
    }

    /// A position (the start when `None`) as a `Position` captioned with its
    /// value for the player to move (`Player 1: win in 23`), which a notebook
    /// draws.
    #[pyo3(signature = (position = None))]
    fn board(&self, py: Python<'_>, position: Option<PositionArg>) -> PyResult<PyPosition> {
        let position = position
            .as_ref()
            .map(|p| p.text(&self.solved.rules))
            .transpose()?;
        let seated = self.seated(position)?;
        let outcome = py.detach(|| -> Result<chopsticks_solve::Outcome, Failure> {
            self.solved
                .check_lines(seated.position())
                .map_err(solve_failure)?;
            self.solved
                .solution
                .outcome(seated.position())
                .map_err(solve_failure)
        })?;
        // A finished game has been won or lost; a game on is won or lost in
        // so many plies.
        let over = seated.position().is_terminal(&self.solved.rules);
        let value = match (outcome.value, outcome.remoteness, over) {
            (chopsticks_solve::Value::Win, _, true) => "has won".to_string(),
            (chopsticks_solve::Value::Lose, _, true) => "has lost".to_string(),
            (v, Some(r), _) => format!("{} in {r}", v.name()),
            (v, None, _) => v.name().to_string(),
        };
        let caption = format!("Player {}: {value}", seated.mover().number());
        PyPosition::of(self.solved.rules.clone(), seated, Some(caption))
    }

    /// The seated id of the position with this index in the ruleset's
    /// dense index (`0 ≤ index < positions`): the row `index` of
    /// `to_numpy()` and `to_pandas()`.
    fn position_at(&self, index: &Bound<'_, PyAny>) -> PyResult<String> {
        let count = self.solved.solution.count();
        let i = whole(index, "index", 0, count as i128 - 1)? as u64;
        let rules = &self.solved.rules;
        let position = PositionIndex::new(rules).map_err(rules_failure)?.unrank(i);
        let turn = position.seat();
        Ok(SeatedPosition::new(rules, turn, position)
            .and_then(|s| s.to_text(rules))
            .map_err(rules_failure)?)
    }

    /// The index of a position (any notation; the start when `None`) in the
    /// ruleset's dense index: its row in `to_numpy()` and `to_pandas()`.
    #[pyo3(signature = (position = None))]
    fn index_of(&self, position: Option<PositionArg>) -> PyResult<u64> {
        let position = position
            .as_ref()
            .map(|p| p.text(&self.solved.rules))
            .transpose()?;
        let seated = seated_of(&self.solved.rules, position)?;
        Ok(self.solved.solution.rank(seated.position()))
    }

    /// The rows `start` to `stop` (the whole table by default) as numpy
    /// arrays, one row a position in index order: `{"index", "player",
    /// "value", "remoteness", "hands"}` and with three or more players
    /// `"values"`. `player`: the player to move, from 1; `value`: a code
    /// into `VALUES` (0 win, 1 lose, 2 draw) for the player to move;
    /// `remoteness`: plies to the end with best play, -1 where there is none
    /// (draws, tables solved without remoteness); `hands`: a row of every
    /// player's hands, Player 1's first (`uint8` up to 256 fingers);
    /// `values`: every player's value by player number (column 0 is
    /// Player 1's). `position_at(i)` gives a row's position. More rows than
    /// `memory` (bytes or a size such as `"2G"`; three quarters of what is
    /// available by default) are refused with the estimate
    /// (`TooLargeError`): `chunks()` streams them.
    #[pyo3(signature = (start = None, stop = None, *, memory = None))]
    fn to_numpy<'py>(
        &self,
        py: Python<'py>,
        start: Option<&Bound<'py, PyAny>>,
        stop: Option<&Bound<'py, PyAny>>,
        memory: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let columns = self.rows_asked(py, start, stop, memory, false)?;
        numpy_columns(py, &self.solved.rules, columns)
    }

    /// The rows `start` to `stop` (the whole table by default) as a pandas
    /// DataFrame indexed by the position's index: `position` (its seated
    /// id), `player` (to move, from 1), `value` (a categorical of `win`,
    /// `lose`, `draw` for the player to move), `remoteness` (nullable: none
    /// for draws), and with three or more players `player_1_value`,
    /// `player_2_value`, …, every player's own value. Needs pandas
    /// (`pip install chopsticks-toolkit[notebook]`). More rows than
    /// `memory` allows are refused with the estimate (`TooLargeError`):
    /// `chunks(kind="pandas")` streams them.
    #[pyo3(signature = (start = None, stop = None, *, memory = None))]
    fn to_pandas<'py>(
        &self,
        py: Python<'py>,
        start: Option<&Bound<'py, PyAny>>,
        stop: Option<&Bound<'py, PyAny>>,
        memory: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let columns = self.rows_asked(py, start, stop, memory, true)?;
        pandas_frame(py, &self.solved.rules, columns)
    }

    /// The rows `start` to `stop` (the whole table by default) in chunks of
    /// `rows` (2^20 by default), each as `to_numpy()` (`kind="numpy"`) or `to_pandas()`
    /// (`kind="pandas"`) gives it: a table larger than memory, a chunk at a
    /// time. `len()` of the iterator is its number of chunks.
    #[pyo3(signature = (rows = None, *, start = None, stop = None, kind = "numpy", memory = None))]
    fn chunks(
        slf: &Bound<'_, Self>,
        rows: Option<&Bound<'_, PyAny>>,
        start: Option<&Bound<'_, PyAny>>,
        stop: Option<&Bound<'_, PyAny>>,
        kind: &str,
        memory: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyChunks> {
        let this = slf.get();
        let (start, stop) = this.rows(start, stop)?;
        let rows = match rows {
            Some(r) => whole(r, "rows", 1, u32::MAX as i128)? as u64,
            None => 1 << 20,
        };
        let pandas = match kind {
            "numpy" => false,
            "pandas" => true,
            other => {
                return Err(Failure(
                    Kind::Rules,
                    format!("kind: `{other}` is not a kind of chunk (numpy or pandas)"),
                )
                .into())
            }
        };
        let memory = memory_arg(memory)?;
        this.refuse_beyond_memory(rows.min(stop - start), pandas, memory)?;
        Ok(PyChunks {
            solution: slf.clone().unbind(),
            next: start,
            stop,
            rows,
            pandas,
            memory,
        })
    }

    fn __repr__(&self) -> String {
        match self.solved.path() {
            Some(p) => format!(
                "<chopsticks_toolkit.Solution of {:?} read from {}: {} positions>",
                self.solved.rules.variant_id(),
                p.display(),
                self.solved.solution.count()
            ),
            None => format!(
                "<chopsticks_toolkit.Solution of {:?}: {} positions>",
                self.solved.rules.variant_id(),
                self.solved.solution.count()
            ),
        }
    }
}

/// Loads numpy's C-API before the long work, where an error is an
/// exception: `rust-numpy` loads it at the first array made and panics when
/// that fails, as it does when an interrupt is pending while numpy's modules
/// are imported. numpy missing is an `ImportError` that says what to install.
fn numpy_ready(py: Python<'_>) -> PyResult<()> {
    py.check_signals()?;
    py.import("numpy").map_err(|e| {
        if e.is_instance_of::<pyo3::exceptions::PyImportError>(py) {
            pyo3::exceptions::PyImportError::new_err(
                "whole tables need numpy: pip install 'chopsticks-toolkit[notebook]'",
            )
        } else {
            e
        }
    })?;
    // numpy 2 keeps its C-API in `numpy._core`, numpy 1 in `numpy.core`.
    if py.import("numpy._core.multiarray").is_err() {
        py.import("numpy.core.multiarray")?;
    }
    py.check_signals()?;
    let _ = numpy::PyArray1::<u8>::zeros(py, 0, false);
    Ok(())
}

/// The arrays of `Solution.to_numpy`, handed to numpy without a copy.
fn numpy_columns<'py>(
    py: Python<'py>,
    rules: &Ruleset,
    c: frames::Columns,
) -> PyResult<Bound<'py, PyDict>> {
    use numpy::{PyArray1, PyArrayMethods};
    let n = c.index.len();
    let hands: usize = rules.hands.iter().sum();
    let players = rules.players();
    let d = PyDict::new(py);
    d.set_item("index", PyArray1::from_vec(py, c.index))?;
    d.set_item("player", PyArray1::from_vec(py, c.player))?;
    d.set_item("value", PyArray1::from_vec(py, c.value))?;
    d.set_item("remoteness", PyArray1::from_vec(py, c.remoteness))?;
    if rules.fingers <= 256 {
        d.set_item(
            "hands",
            PyArray1::from_vec(py, c.hands).reshape([n, hands])?,
        )?;
    } else {
        d.set_item(
            "hands",
            PyArray1::from_vec(py, c.wide_hands).reshape([n, hands])?,
        )?;
    }
    if players > 2 {
        d.set_item(
            "values",
            PyArray1::from_vec(py, c.values).reshape([n, players])?,
        )?;
    }
    Ok(d)
}

/// The DataFrame of `Solution.to_pandas`, built by `chopsticks_toolkit._frames`.
fn pandas_frame<'py>(
    py: Python<'py>,
    rules: &Ruleset,
    mut c: frames::Columns,
) -> PyResult<Bound<'py, PyAny>> {
    let positions = std::mem::take(&mut c.positions);
    let arrays = numpy_columns(py, rules, c)?;
    py.import("chopsticks_toolkit._frames")?
        .getattr("frame")?
        .call1((arrays, positions, rules.players()))
}

/// The chunks of a table (`Solution.chunks`): each a dict of numpy arrays or
/// a DataFrame, computed when asked for.
#[pyclass(name = "Chunks", module = "chopsticks_toolkit")]
struct PyChunks {
    solution: Py<PySolution>,
    next: u64,
    stop: u64,
    rows: u64,
    pandas: bool,
    memory: Option<u64>,
}

#[pymethods]
impl PyChunks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        if self.next >= self.stop {
            return Ok(None);
        }
        let start = self.next;
        let stop = (start + self.rows).min(self.stop);
        let solution = self.solution.bind(py).get();
        let columns = solution.columns(py, start, stop, self.pandas, self.memory)?;
        self.next = stop;
        let rules = &solution.solved.rules;
        Ok(Some(if self.pandas {
            pandas_frame(py, rules, columns)?
        } else {
            numpy_columns(py, rules, columns)?.into_any()
        }))
    }

    /// The chunks left.
    fn __len__(&self) -> usize {
        (self.stop.saturating_sub(self.next)).div_ceil(self.rows) as usize
    }
}

/// Grades from Python: `3`, `"medium"`, or a pair `(2, 4)`.
fn grades(arg: &Bound<'_, PyAny>) -> PyResult<(Difficulty, Difficulty)> {
    let one = |a: &Bound<'_, PyAny>| -> PyResult<Difficulty> {
        let text = match a.extract::<i64>() {
            Ok(n) => n.to_string(),
            Err(_) => a.extract::<String>().map_err(|_| {
                PyTypeError::new_err(
                    "a difficulty is a grade 1–5 (int), its name (str), or a pair of them \
                     (lowest, highest)",
                )
            })?,
        };
        Difficulty::parse(&text).ok_or_else(|| {
            Failure(
                Kind::Rules,
                format!(
                    "unknown difficulty `{text}`; use 1–5 or beginner, easy, medium, hard, expert"
                ),
            )
            .into()
        })
    };
    let pair = arg
        .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
        .ok()
        .or_else(|| {
            arg.extract::<Vec<Bound<'_, PyAny>>>()
                .ok()
                .filter(|v| v.len() == 2 && !arg.is_instance_of::<pyo3::types::PyString>())
                .map(|v| (v[0].clone(), v[1].clone()))
        });
    if let Some((lo, hi)) = pair {
        let (lo, hi) = (one(&lo)?, one(&hi)?);
        if lo > hi {
            return Err(Failure(
                Kind::Rules,
                "the difficulty range is empty (the lower grade comes first)".into(),
            )
            .into());
        }
        return Ok((lo, hi));
    }
    let g = one(arg)?;
    Ok((g, g))
}

/// A `memory=` keyword: bytes, or a size such as `"512M"` or `"2G"`.
fn memory_arg(memory: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    Ok(match memory {
        None => None,
        Some(m) if m.is_instance_of::<pyo3::types::PyString>() => {
            let text: String = m.extract()?;
            Some(
                chopsticks_driver::estimate::parse_size(&text)
                    .map_err(|e| Failure(Kind::Rules, format!("memory: {e}")))?,
            )
        }
        Some(m) => Some(whole(m, "memory", 1, u64::MAX as i128 / 2)? as u64),
    })
}

/// Solves a ruleset (a variant id or a `Ruleset`; the standard game when
/// `None`): every position's value with its remoteness, or values alone with
/// `remoteness=False` (half the memory). `save` writes the table to a file as
/// it is solved (checkpointed, resumable; a file there is replaced). Variants
/// too large for memory are refused with the estimate (`TooLargeError`);
/// `memory` sets the budget, in bytes or as a size such as `"512M"` or
/// `"2G"` (three quarters of what is available by default), and a solve that
/// does not fit it in memory runs out of core. Work estimated to take more
/// than ten seconds is announced on standard error with its estimate unless
/// `quiet`; `progress=True` reports its phases there too, and a callable
/// `progress=f` is called with each event instead: a dict `{"event":
/// "begin" | "advance" | "end" | "announce", "phase", "done", "total",
/// "message"}` (`done`: positions decided so far while solving). Ctrl-C
/// (or an exception `f` raises) stops the solve at its next level and
/// raises `KeyboardInterrupt` (or that exception); nothing is left behind
/// but, with `save`, the checkpoints the same call resumes from.
#[pyfunction]
#[pyo3(signature = (variant = None, *, remoteness = true, save = None, memory = None, progress = None, quiet = false))]
fn solve(
    py: Python<'_>,
    variant: Option<&Bound<'_, PyAny>>,
    remoteness: bool,
    save: Option<PathBuf>,
    memory: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
    quiet: bool,
) -> PyResult<PySolution> {
    let rules = ruleset_of(variant)?;
    let memory = memory_arg(memory)?;
    let mut request = SolveRequest::new(rules);
    request.save = save;
    request.memory = memory;
    request.no_remoteness = !remoteness;
    let events = Progress::new(progress, quiet)?;
    let solved = interruptible(py, &events, || -> Result<Solved, Failure> {
        let _scratch = scratch_lock();
        if let Some(path) = &request.save {
            chopsticks_files::check_writable(path)
                .map_err(|e| Failure(Kind::File, format!("cannot save the solution: {e}")))?;
        }
        let plan = request.plan().map_err(driver_failure)?;
        let (solved, _) =
            chopsticks_driver::solve(&request, plan, &events).map_err(driver_failure)?;
        Ok(solved)
    })?;
    Ok(PySolution {
        solved,
        puzzles: OnceLock::new(),
    })
}

/// Opens a saved solution (`chopsticks solve --save`), read in place: only the
/// blocks asked for are read, and every position shown is checked against the
/// rules around it first, as the command line does.
#[pyfunction]
fn load(py: Python<'_>, path: PathBuf) -> PyResult<PySolution> {
    let solved = py.detach(|| Solved::open(&path)).map_err(solve_failure)?;
    Ok(PySolution {
        solved,
        puzzles: OnceLock::new(),
    })
}

/// The legal moves of a position and where they lead, without solving
/// (`chopsticks moves --json`).
#[pyfunction]
#[pyo3(signature = (position = None, variant = None, *, notation = None))]
fn moves<'py>(
    py: Python<'py>,
    position: Option<PositionArg>,
    variant: Option<&Bound<'py, PyAny>>,
    notation: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let rules = PyRuleset {
        rules: ruleset_of(variant)?,
    };
    rules.moves(py, position, notation)
}

/// The outcome class (L, R, N or P) of every position of Simple Chopsticks
/// `(x|y)_n` with at most `max_hands` hands a side (`chopsticks table
/// outcomes`).
#[pyclass(name = "Atlas", module = "chopsticks_toolkit", frozen)]
struct PyAtlas {
    atlas: Atlas,
}

/// The outcome codes of [`PyAtlas::array`], in this order.
const OUTCOME_CODES: [&str; 4] = ["L", "R", "N", "P"];

fn outcome_code(o: chopsticks_cgt::Outcome) -> u8 {
    OUTCOME_CODES
        .iter()
        .position(|c| *c == o.to_string())
        .expect("four outcome classes") as u8
}

#[pymethods]
impl PyAtlas {
    /// Solves the atlas of `(x|y)_n` with up to `max_hands` hands a side
    /// (refused with its size when too large).
    #[new]
    fn new(
        py: Python<'_>,
        n: &Bound<'_, PyAny>,
        max_hands: &Bound<'_, PyAny>,
    ) -> PyResult<PyAtlas> {
        let n = whole(n, "n", 1, u32::MAX as i128)? as u32;
        let max_hands = whole(max_hands, "max_hands", 1, 255)? as usize;
        let size = Atlas::check(n, max_hands).map_err(atlas_failure)?;
        // Its bits, and the array of one byte a position `array()` makes.
        chopsticks_driver::ensure_fits(
            size.bytes,
            &format!("the outcomes of (x|y)_{n} with up to {max_hands} hands a side"),
        )
        .map_err(driver_failure)?;
        let atlas = py
            .detach(|| Atlas::solve(n, max_hands, None))
            .map_err(atlas_failure)?;
        Ok(PyAtlas { atlas })
    }

    /// n: a hand passing n fingers is removed (F = n + 1).
    #[getter]
    fn n(&self) -> u32 {
        self.atlas.n()
    }

    /// The most hands a side.
    #[getter]
    fn max_hands(&self) -> usize {
        self.atlas.max_hands()
    }

    /// Every side (a list of live hands, ascending), in the order of the rows
    /// and columns of `array`.
    fn sides(&self) -> Vec<Vec<u32>> {
        let sides = self.atlas.sides();
        (0..sides.count())
            .map(|r| sides.values(r).collect())
            .collect()
    }

    /// The outcome class of `(left | right)_n`: "L", "R", "N" or "P".
    fn outcome(&self, left: &Bound<'_, PyAny>, right: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = self.atlas.n() as i128;
        let (left, right) = (hand_list(left, "left", n)?, hand_list(right, "right", n)?);
        Ok(self
            .atlas
            .outcome(&left, &right)
            .map_err(atlas_failure)?
            .to_string())
    }

    /// Outcome counts, in all and by hand counts (`table outcomes --json`).
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let summary = py.detach(|| self.atlas.summary());
        to_python(py, &chopsticks_report::atlas_summary(&summary))
    }

    /// The outcomes as one byte a position, row `left` and column `right` in
    /// the order of `sides()` (`numpy.frombuffer(a.array(), numpy.uint8)
    /// .reshape(k, k)`); codes 0 = L, 1 = R, 2 = N, 3 = P (`OUTCOMES`).
    fn array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let count = self.atlas.sides().count() as usize;
        let len = count * count;
        chopsticks_driver::ensure_fits(
            len as u64,
            &format!("the array of {len} outcomes (one byte each)"),
        )
        .map_err(driver_failure)?;
        let bytes = py.detach(|| {
            let mut bytes = vec![0u8; len];
            for (l, row) in bytes.chunks_mut(count.max(1)).enumerate() {
                for (r, b) in row.iter_mut().enumerate() {
                    *b = outcome_code(self.atlas.outcome_at(l as u32, r as u32));
                }
            }
            bytes
        });
        Ok(PyBytes::new(py, &bytes))
    }

    /// One record a position, DataFrame-ready: `{"position", "left", "right",
    /// "outcome"}` (the paper's notation, both sides' hands, the class).
    /// Refused beyond `limit` positions (use `array` for large atlases).
    #[pyo3(signature = (*, limit = None))]
    fn records<'py>(
        &self,
        py: Python<'py>,
        limit: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let limit = match limit {
            Some(l) => whole(l, "limit", 0, u64::MAX as i128)? as u64,
            None => 1_000_000,
        };
        if self.atlas.len() > limit {
            return Err(Failure(
                Kind::TooLarge,
                format!(
                    "the atlas has {} positions, more than the limit of {limit} records; \
                     raise `limit` or use `array()`",
                    self.atlas.len()
                ),
            )
            .into());
        }
        let sides = self.sides();
        let list = PyList::empty(py);
        let count = sides.len() as u32;
        for l in 0..count {
            for r in 0..count {
                let d = PyDict::new(py);
                d.set_item("position", self.atlas.paper(l, r))?;
                d.set_item("left", &sides[l as usize])?;
                d.set_item("right", &sides[r as usize])?;
                d.set_item("outcome", self.atlas.outcome_at(l, r).to_string())?;
                list.append(d)?;
            }
        }
        Ok(list)
    }

    fn __len__(&self) -> usize {
        self.atlas.len() as usize
    }

    fn __repr__(&self) -> String {
        format!(
            "<chopsticks_toolkit.Atlas of (x|y)_{} with up to {} hands a side: {} positions>",
            self.atlas.n(),
            self.atlas.max_hands(),
            self.atlas.len()
        )
    }
}

fn value_failure(e: ValueReportError) -> Failure {
    use chopsticks_values::ValueError as E;
    let short = matches!(e, ValueReportError::Short(_));
    match e {
        ValueReportError::Short(E::Work(_))
        | ValueReportError::Loopy(E::Loopy(chopsticks_loopy::LoopyError::Work { .. })) => {
            Failure(Kind::TooLarge, format!("{e}; max_work= sets the limit"))
        }
        ValueReportError::Short(E::Parse { ref error, .. }) if error.work_limit.is_some() => {
            Failure(Kind::TooLarge, format!("{e}; max_work= sets the limit"))
        }
        ValueReportError::Short(E::TooLarge { .. } | E::Estimated { .. } | E::Memory { .. })
        | ValueReportError::Loopy(E::TooLarge { .. } | E::Memory { .. }) => Failure(
            Kind::TooLarge,
            format!(
                "{e}; {} sets the limit",
                if short {
                    "max_positions="
                } else {
                    "max_vertices="
                }
            ),
        ),
        ValueReportError::Unwritable(m) => Failure(Kind::TooLarge, m),
        e => Failure(Kind::Rules, e.to_string()),
    }
}

/// Stack for the evaluation of a game value, as on the command line: the game
/// engine does not recurse on game trees and the parser's nesting is bounded;
/// this is a comfortable margin.
const VALUE_STACK_BYTES: usize = 64 << 20;

/// The canonical game value of positions of Simple Chopsticks (or another
/// loop-free ruleset), of sums of them and of games in CGSuite notation; under
/// rules whose play can cycle, the loopy value (`chopsticks value --json`).
/// `expression` is a position in the paper's notation `(1|1)_4` (its `_n`
/// sets F = n + 1), a sum `(1|1)_12 + (2|5)_40`, a CGSuite game `{0|^[2]}`,
/// or a comparison (`<=`, `>=`, `==`, `!=`, `<>`, …). `variant` gives the
/// rules (`simple`, the paper's, by default); `hands` the hands of Left and
/// Right. `details` adds the birthday, stops, mean and temperature,
/// `uptimal` the uptimal form. The bounds (`None`: the command line's
/// defaults) are `max_positions` positions per component (100,000,000),
/// `max_work` steps of work (the command line's `--max-work`), and under
/// rules whose play can cycle `max_vertices` positions in a component's graph
/// (4,096).
#[pyfunction]
#[pyo3(signature = (
    expression,
    variant = None,
    *,
    hands = None,
    details = false,
    uptimal = false,
    max_positions = None,
    max_work = None,
    max_vertices = None
))]
#[allow(clippy::too_many_arguments)]
fn value<'py>(
    py: Python<'py>,
    expression: &str,
    variant: Option<&Bound<'py, PyAny>>,
    hands: Option<&Bound<'py, PyAny>>,
    details: bool,
    uptimal: bool,
    max_positions: Option<&Bound<'py, PyAny>>,
    max_work: Option<&Bound<'py, PyAny>>,
    max_vertices: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bound = |arg: Option<&Bound<'py, PyAny>>, name: &str, default: u64| match arg {
        Some(a) => whole(a, name, 1, u64::MAX as i128).map(|v| v as u64),
        None => Ok(default),
    };
    let max_positions = bound(
        max_positions,
        "max_positions",
        chopsticks_values::Limits::DEFAULT.max_positions,
    )?;
    let max_work = bound(
        max_work,
        "max_work",
        chopsticks_values::Limits::DEFAULT.max_work,
    )?;
    let max_vertices = bound(
        max_vertices,
        "max_vertices",
        chopsticks_values::MAX_LOOPY_VERTICES as u64,
    )? as usize;
    let hands: Option<Vec<usize>> = match hands {
        Some(h) => Some(
            hand_list(h, "hands", i128::from(u16::MAX))?
                .into_iter()
                .map(|v| {
                    if v == 0 {
                        Err(Failure(Kind::Rules, "`hands` are at least 1 a side".into()).into())
                    } else {
                        Ok(v as usize)
                    }
                })
                .collect::<PyResult<Vec<usize>>>()?,
        ),
        None => None,
    };
    let base = match variant {
        None => Preset::Simple.ruleset(),
        Some(_) => ruleset_of(variant)?,
    };
    chopsticks_report::value::check_two_players(&base)
        .map_err(|e| Failure(Kind::Rules, e.to_string().replace(": drop --players", "")))?;
    let plan = chopsticks_values::Plan::new(&base, hands.as_deref(), expression)
        .map_err(|e| value_failure(ValueReportError::Short(e)))?;
    // A variant id that names the fingers or hands must agree with the
    // positions (which carry their own `_n` and hands), as on the command line.
    if let Some(Ok(id)) = variant.map(|v| v.extract::<String>()) {
        use chopsticks_report::value::SizeMismatch;
        let message =
            match chopsticks_report::value::size_mismatch(&plan, &base, &id, hands.is_some()) {
                Some(SizeMismatch::Fingers {
                    position,
                    fingers,
                    said,
                }) => Some(format!(
                "`{position}` has F = {fingers} (n = {}), but the variant {id} says F = {said}; \
                 drop one of them",
                fingers - 1
            )),
                Some(SizeMismatch::Hands {
                    position,
                    hands,
                    said,
                }) => Some(format!(
                    "`{position}` has {hands:?} hands a side, but the variant {id} says {said:?}; \
                 give hands=, or drop the variant's h part"
                )),
                None => None,
            };
        if let Some(m) = message {
            return Err(Failure(Kind::Rules, m).into());
        }
    }
    let options = ValueOptions {
        limits: chopsticks_values::Limits {
            max_positions,
            max_work,
        },
        max_vertices,
        uptimal,
        details,
    };
    let document = py.detach(|| {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("value".into())
                .stack_size(VALUE_STACK_BYTES)
                .spawn_scoped(scope, || {
                    chopsticks_report::value::value(
                        &plan,
                        expression,
                        &options,
                        chopsticks_report::value::ValueProgress::default(),
                    )
                })
                .map_err(|e| {
                    Failure(
                        Kind::Other,
                        format!("cannot start the evaluation thread: {e}"),
                    )
                })?
                .join()
                .map_err(|_| Failure(Kind::Other, "the evaluation failed unexpectedly".into()))?
                .map_err(value_failure)
        })
    })?;
    to_python(py, &document)
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRuleset>()?;
    m.add_class::<PySolution>()?;
    m.add_class::<PyAtlas>()?;
    m.add_class::<PyChunks>()?;
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(moves, m)?)?;
    m.add_function(wrap_pyfunction!(value, m)?)?;
    m.add("OUTCOMES", OUTCOME_CODES.to_vec())?;
    m.add("VALUES", vec!["win", "lose", "draw"])?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("COMMAND_LINE_VERSION", chopsticks_toolkit::VERSION)?;
    m.add_function(wrap_pyfunction!(run_command_line, m)?)?;
    Ok(())
}

/// Runs the `chopsticks` command line on `args` (the program's name first) as
/// `program`, the script worker processes are started from; never returns:
/// the process ends with the command's exit status (the wheel's `chopsticks`
/// script, `chopsticks_toolkit._cli`).
#[pyfunction]
fn run_command_line(py: Python<'_>, program: std::path::PathBuf, args: Vec<std::ffi::OsString>) {
    py.detach(move || chopsticks_toolkit::run_as(program, args))
}
