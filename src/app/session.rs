//! The session: what starts, keeps, replaces and ends the game on the board. It carries out
//! [`Command::NewGame`], [`Command::Menu`], [`Command::Rematch`], [`Command::Load`] and
//! [`Command::Open`] (its system `session`), opens a record of any game from any screen ([`OpenRecord`]),
//! starts the start screen's [`Setup`] on entering [`Screen::Playing`], and keeps a game for the
//! start screen's Resume ([`Suspended`]). A record is checked and replayed once, here
//! ([`Model::from_record`]), whichever game was on the board.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::flow::{Command, Screen, Seating, Status, Step};
use super::games::{AppGame, ForGame, for_id};
use super::in_play::{InPlay, Summary};
use super::learn::Learning;
use super::model::Model;
use super::setup::{GameOptions, Setup, unknown_game};
use crate::rules::record::Record;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Setup>()
        .init_resource::<Suspended>()
        .init_resource::<Opening>()
        .add_systems(OnEnter(Screen::Playing), start_game)
        .add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.remove_resource::<Learning>())
        .add_systems(Update, open_record.in_set(Step::Intents).run_if(resource_exists::<OpenRecord>));
}

/// The session's system for one game type, right after its validation system.
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_systems(
        Update,
        session::<G>.in_set(Step::Apply).after(super::play::validate::<G>).run_if(resource_exists::<Model<G>>),
    );
}

/// A record to open as the game in play, with its own seats (a share link, a file opened at
/// launch, a lesson's step); removed once it has been opened or refused.
#[derive(Resource, Clone, Debug)]
pub struct OpenRecord(pub Record);

/// The seats for the next [`OpenRecord`] instead of those its labels name, and the online game
/// its board plays (`app::online`); removed with it.
#[derive(Resource, Clone, Debug)]
pub struct OpenSeats(pub Seating);

/// Opens `learning`'s lesson at its step: the step's position as the game in play (from any
/// screen, as a share link opens), and the lesson beside it.
pub fn open_lesson(learning: Learning, commands: &mut Commands) {
    commands.insert_resource(OpenRecord(learning.record()));
    commands.insert_resource(learning);
}

/// A game left for the start screen by Menu, kept until Resume brings it back or another game
/// starts.
#[derive(Resource, Default)]
pub struct Suspended {
    /// The game kept, if any.
    pub game: Option<SuspendedGame>,
    /// Set by the start screen's Resume: the next [`Screen::Playing`] restores the game kept
    /// instead of starting the [`Setup`].
    pub resume: bool,
}

/// A game of any type held off the board — kept by [`Suspended`], or opened from a record of
/// another game and waiting for its board: what the start screen says of it, and how to put it
/// back.
pub struct SuspendedGame {
    /// Its name ("Trike").
    pub name: String,
    /// Its moves so far.
    pub moves: usize,
    /// True when it is over.
    pub over: bool,
    /// Its setup (the game with its options, and its seats).
    pub setup: Setup,
    restore: Box<dyn FnOnce(&mut Commands) -> Summary + Send + Sync>,
}

impl SuspendedGame {
    /// Holds `model` off the board.
    pub fn of<G: AppGame>(model: Model<G>) -> SuspendedGame {
        let setup = Setup { game: GameOptions::of::<G>(model.game().options()), seats: model.seats().to_vec() };
        SuspendedGame {
            name: model.game().display_name(),
            moves: model.moves().len(),
            over: model.over(),
            setup,
            restore: Box::new(move |commands: &mut Commands| {
                let summary = Summary::of(&model);
                commands.insert_resource(model);
                summary
            }),
        }
    }
}

impl Suspended {
    /// Keeps the game of `model` as it is (its moves, redo stack and seats).
    pub fn keep<G: AppGame>(model: &Model<G>) -> Suspended {
        Suspended { game: Some(SuspendedGame::of(model.clone())), resume: false }
    }

    /// Asks for the game kept to come back at the next [`Screen::Playing`], with its setup; false
    /// when none is kept.
    pub fn resume(&mut self, setup: &mut Setup) -> bool {
        let Some(kept) = &self.game else { return false };
        *setup = kept.setup.clone();
        self.resume = true;
        true
    }

    /// True when a game is kept that is not over (starting another drops it: ask first).
    pub fn unfinished(&self) -> bool {
        self.game.as_ref().is_some_and(|g| !g.over && g.moves > 0)
    }
}

/// A record of another game than the board's, checked and replayed, waiting for the next
/// [`Screen::Playing`] to be put on the board, with what the status line then says.
#[derive(Resource, Default)]
struct Opening(Option<(SuspendedGame, Status)>);

/// What the session's systems change besides the model.
#[derive(SystemParam)]
struct Session<'w> {
    setup: ResMut<'w, Setup>,
    suspended: ResMut<'w, Suspended>,
    opening: ResMut<'w, Opening>,
    status: ResMut<'w, Status>,
    next: ResMut<'w, NextState<Screen>>,
}

/// Starts the game of the [`Setup`] — or puts back the game [`Suspended`] kept (after Resume),
/// or a record's game waiting for its board ([`OpenRecord`]) — with its model, and at once its
/// [`InPlay`] summary (so a share link being opened sees the board up in the next frame). Starting
/// a game drops a kept one.
fn start_game(mut commands: Commands, mut session: Session, mut in_play: ResMut<InPlay>) {
    let resume = std::mem::take(&mut session.suspended.resume);
    let kept = session.suspended.game.take();
    if let Some((opened, said)) = session.opening.0.take() {
        in_play.0 = Some((opened.restore)(&mut commands));
        *session.status = said;
        return;
    }
    if let Some(kept) = kept
        && resume
    {
        in_play.0 = Some((kept.restore)(&mut commands));
        *session.status =
            Status::info(format!("Resumed {} after {}", kept.name, crate::rules::counted(kept.moves, "move", "moves")));
        return;
    }
    struct Start<'a, 'w, 's>(&'a Setup, &'a mut Commands<'w, 's>);
    impl ForGame for Start<'_, '_, '_> {
        type Output = Result<(String, Summary), String>;
        fn run<G: AppGame>(self) -> Self::Output {
            let model = Model::<G>::with(&self.0.game.read::<G>()?, &self.0.seats)?;
            let said = (model.game().new_game_text(), Summary::of(&model));
            self.1.insert_resource(model);
            Ok(said)
        }
    }
    let id = session.setup.game.game.clone();
    *session.status = match for_id(&id, Start(&session.setup, &mut commands)).unwrap_or_else(|| Err(unknown_game(&id)))
    {
        Ok((text, summary)) => {
            in_play.0 = Some(summary);
            Status::info(text)
        }
        Err(e) => Status::error(e),
    };
}

/// Opens [`OpenRecord`]'s record: on the board of its game when that is up ([`Command::Open`],
/// which [`session`] carries out), else checked and replayed here and put on its board at the next
/// [`Screen::Playing`], entered now. A bad record leaves everything as it was, with the reason in
/// the status line.
fn open_record(
    mut commands: Commands,
    open: Res<OpenRecord>,
    seats: Option<Res<OpenSeats>>,
    in_play: Res<InPlay>,
    learning: Option<Res<Learning>>,
    mut session: Session,
    mut orders: MessageWriter<Command>,
) {
    let record = open.0.clone();
    let seating = seats.map(|s| s.0.clone());
    commands.remove_resource::<OpenRecord>();
    commands.remove_resource::<OpenSeats>();
    let id = record.game.as_str();
    if in_play.0.as_ref().is_some_and(|s| s.ids.contains(&id)) {
        orders.write(match seating {
            Some(seating) => Command::OpenSeated(record, seating),
            None => Command::Open(record),
        });
        return;
    }
    struct Replay<'a>(&'a Record, Option<&'a Seating>);
    impl ForGame for Replay<'_> {
        type Output = Result<SuspendedGame, String>;
        fn run<G: AppGame>(self) -> Self::Output {
            let seats = self.1.map(|s| s.seats.as_slice());
            let online = self.1.and_then(|s| s.online.clone());
            Model::<G>::from_record(self.0, seats).map(|m| SuspendedGame::of(m.playing_online(online)))
        }
    }
    match for_id(id, Replay(&record, seating.as_ref())).unwrap_or_else(|| Err(unknown_game(id))) {
        Ok(opened) => {
            let said = loaded(opened.moves, learning.as_deref());
            session.setup.clone_from(&opened.setup);
            session.opening.0 = Some((opened, said));
            session.next.set(Screen::Playing);
        }
        Err(e) => *session.status = Status::error(format!("cannot open the game: {e}")),
    }
}

/// What the status line says of a record just put on the board: in a lesson, the step to play.
fn loaded(moves: usize, learning: Option<&Learning>) -> Status {
    match learning {
        Some(l) => Status::info(format!("Step {} of {}: make the move", l.step + 1, l.lesson.steps.len())),
        None => Status::info(format!("Loaded a game of {}", crate::rules::counted(moves, "move", "moves"))),
    }
}

/// The session's system: carries out the commands that start, keep, replace or end the game
/// of type `G` on the board (the others are the validation system's, [`super::play`]).
fn session<G: AppGame>(
    mut commands: Commands,
    mut orders: MessageReader<Command>,
    mut model: ResMut<Model<G>>,
    mut learning: Option<Res<Learning>>,
    mut session: Session,
) {
    for order in orders.read() {
        // A record other than the lesson's step ends the lesson: it loads as any record does.
        if let Command::Load(record) | Command::Open(record) | Command::OpenSeated(record, _) = order
            && learning.as_deref().is_some_and(|l| *record != l.record())
        {
            learning = None;
            commands.remove_resource::<Learning>();
        }
        match order {
            Command::NewGame => session.next.set(Screen::Menu),
            Command::Menu => {
                *session.suspended = Suspended::keep(&model);
                session.next.set(Screen::Menu);
            }
            Command::Rematch => {
                // A rematch is a game, no longer the lesson.
                learning = None;
                commands.remove_resource::<Learning>();
                if let Ok(fresh) = model.rematch() {
                    session.setup.game = GameOptions::of::<G>(fresh.game().options());
                    session.setup.seats = fresh.seats().to_vec();
                    let two = fresh.seats().len() == 2;
                    model.replace(fresh);
                    *session.status = Status::info(if two {
                        "Rematch: the seats are exchanged"
                    } else {
                        "Rematch: the seats move round by one"
                    });
                }
            }
            Command::Load(record) | Command::Open(record) | Command::OpenSeated(record, _)
                if !G::IDS.contains(&record.game.as_str()) =>
            {
                // Another game: opened like a share link, on its own board with the record's seats
                // (or those given).
                commands.insert_resource(OpenRecord(record.clone()));
                if let Command::OpenSeated(_, seating) = order {
                    commands.insert_resource(OpenSeats(seating.clone()));
                }
            }
            Command::Load(record) | Command::Open(record) | Command::OpenSeated(record, _) => {
                let (seats, online) = match order {
                    Command::Load(_) => (Some(model.seats().to_vec()), None),
                    Command::OpenSeated(_, seating) => (Some(seating.seats.clone()), seating.online.clone()),
                    _ => (None, None),
                };
                match Model::<G>::from_record(record, seats.as_deref()) {
                    Ok(fresh) => {
                        let fresh = fresh.playing_online(online);
                        model.replace(fresh);
                        session.setup.game = GameOptions::of::<G>(model.game().options());
                        session.setup.seats = model.seats().to_vec();
                        *session.status = loaded(model.moves().len(), learning.as_deref());
                    }
                    Err(e) => *session.status = Status::error(format!("cannot load: {e}")),
                }
            }
            _ => {}
        }
    }
}
