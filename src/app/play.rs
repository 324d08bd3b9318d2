//! The validation system, the only writer of the game line ([`Model`]) while a game is on the
//! board: moves (a click, a move in notation, a finished search), review, undo and redo, hints and
//! finished analyses. What starts, keeps, replaces or ends a game is the session's
//! ([`super::session`]).

use bevy::prelude::*;

use super::flow::{Analysed, Command, Gate, MoveIntent, PlayedPly, Screen, ServerMove, Status, Step, TextIntent};
use super::games::AppGame;
use super::in_play::{InPlay, summarise};
use super::learn::Learning;
use super::model::Model;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Status>()
        .init_resource::<Gate>()
        .init_resource::<InPlay>()
        .add_message::<Command>()
        .add_message::<TextIntent>()
        .add_message::<ServerMove>()
        .add_message::<PlayedPly>()
        .configure_sets(Update, (Step::Intents, Step::Apply, Step::View).chain())
        .add_systems(OnExit(Screen::Playing), |mut in_play: ResMut<InPlay>| in_play.0 = None)
        .add_systems(Update, no_game_for_text.in_set(Step::Apply).run_if(not(in_state(Screen::Playing))));
}

/// The validation system of one game type (called by the registry for every game); the session's
/// system for the same game runs right after it ([`super::session::game_plugin`]).
pub(super) fn game_plugin<G: AppGame>(app: &mut App) {
    app.add_message::<MoveIntent<G::Move>>()
        .add_message::<Analysed<G::Move>>()
        .add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.remove_resource::<Model<G>>())
        .add_systems(
            Update,
            (text_intents::<G>, validate::<G>).chain().in_set(Step::Apply).run_if(resource_exists::<Model<G>>),
        )
        .add_systems(Update, summarise::<G>.in_set(Step::View).run_if(resource_exists_and_changed::<Model<G>>));
}

/// Moves in notation become move intents of the game in play.
fn text_intents<G: AppGame>(
    mut texts: MessageReader<TextIntent>,
    model: Res<Model<G>>,
    mut status: ResMut<Status>,
    mut intents: MessageWriter<MoveIntent<G::Move>>,
) {
    for TextIntent(text) in texts.read() {
        match model.game().parse_move(text) {
            Ok(mv) => {
                intents.write(MoveIntent { mv, from_ai: false });
            }
            Err(e) => *status = Status::refusal(text, e),
        }
    }
}

fn no_game_for_text(mut texts: MessageReader<TextIntent>, mut status: ResMut<Status>) {
    for TextIntent(text) in texts.read() {
        *status = Status::error(format!("{text}: no game in play"));
    }
}

/// The validation system: plays the move intents (a person's only when a person may move, and in a
/// lesson only the step's answer), keeps finished analyses, and carries out the commands on the
/// line (review, play from here, variations, hints, undo, redo); what the [`Gate`] refuses (an
/// online game's) is refused with its reason.
pub(super) fn validate<G: AppGame>(
    mut intents: MessageReader<MoveIntent<G::Move>>,
    mut served: MessageReader<ServerMove>,
    mut orders: MessageReader<Command>,
    mut analysed: MessageReader<Analysed<G::Move>>,
    mut model: ResMut<Model<G>>,
    (mut status, gate): (ResMut<Status>, Res<Gate>),
    (mut learning, mut played): (Option<ResMut<Learning>>, MessageWriter<PlayedPly>),
) {
    for ServerMove(text) in served.read() {
        *status = server_move(&mut model, text);
    }
    for intent in intents.read() {
        // A game ended elsewhere (an online game's resignation or flag) takes no more moves.
        if let Some(why) = &gate.moves {
            *status = Status::error(why.clone());
            continue;
        }
        let (ply, mover) = (model.moves().len(), model.game().to_move());
        if let Some(said) = play_intent(&mut model, intent, learning.as_deref_mut()) {
            // Played when the line grew by it: the text at its ply is the move's.
            if let (Some(mover), Some(text)) = (mover, model.texts().get(ply).filter(|_| !said.error)) {
                played.write(PlayedPly {
                    online: model.online().map(str::to_string),
                    ply: ply as u32,
                    seat: mover.0,
                    from_ai: intent.from_ai,
                    text: text.clone(),
                });
            }
            *status = said;
        }
    }
    for done in analysed.read() {
        let mistakes = done.analysis.moves.iter().filter(|m| m.mistake).count();
        model.keep_analysis(done.analysis.clone(), done.line.clone());
        *status = Status::info(format!(
            "Analysed {} moves: {mistakes} mistake{}",
            done.analysis.moves.len(),
            if mistakes == 1 { "" } else { "s" }
        ));
    }
    for order in orders.read() {
        if let Err(why) = gate.allows(order) {
            *status = Status::error(why);
            continue;
        }
        if let Some(said) = on_the_line(&mut model, order) {
            *status = said;
        }
    }
}

/// Plays one move intent; returns what the status line says of it, `None` for a stale search's.
fn play_intent<G: AppGame>(
    model: &mut Model<G>,
    intent: &MoveIntent<G::Move>,
    learning: Option<&mut Learning>,
) -> Option<Status> {
    if intent.from_ai {
        // A search finishing after the seat changed hands (a person took over) plays nothing.
        model.ai_to_move()?;
    } else if let Err(why) = model.person_may_move() {
        return Some(Status::error(why));
    } else if let Some(learning) = learning
        && let Err(why) = learning.answer(model.game(), intent.mv)
    {
        return Some(Status::error(why));
    }
    let game = model.game();
    let mover = game.player_name(game.to_move().expect("not over"));
    let text = game.move_text(intent.mv);
    let said = game.played_text(mover, &text);
    Some(match model.play(intent.mv) {
        Ok(forced) => {
            let mut line = said;
            for f in forced {
                line = format!("{line}. {f}");
            }
            match model.result_text() {
                Some(result) => Status::info(format!("{line}. Game over: {result}")),
                None => Status::info(line),
            }
        }
        Err(e) => Status::refusal(&text, e),
    })
}

/// Plays a move the game server stored, for whichever seat is to move; returns what the status
/// line says of it.
fn server_move<G: AppGame>(model: &mut Model<G>, text: &str) -> Status {
    let game = model.game();
    let Some(mover) = game.to_move() else {
        return Status::error(format!("{text}: the server sent a move after the end of the game"));
    };
    let mover = game.player_name(mover);
    let mv = match game.parse_move(text) {
        Ok(mv) => mv,
        Err(e) => return Status::refusal(text, e),
    };
    let said = game.played_text(mover, &game.move_text(mv));
    match model.play(mv) {
        Ok(forced) => {
            let line = std::iter::once(said).chain(forced).collect::<Vec<_>>().join(". ");
            match model.result_text() {
                Some(result) => Status::info(format!("{line}. Game over: {result}")),
                None => Status::info(line),
            }
        }
        Err(e) => Status::refusal(text, e),
    }
}

/// Carries out a command on the line; `None` for a command of the session's.
fn on_the_line<G: AppGame>(model: &mut Model<G>, order: &Command) -> Option<Status> {
    Some(match order {
        Command::Review(to) => match model.review_target(*to) {
            Some(ply) => {
                model.review_to(ply);
                Status::info(if model.review() {
                    "Reviewing: the arrow keys step through the game, End goes back to it"
                } else {
                    "Back to the game"
                })
            }
            None => Status::error("no mistake after this move (Analyze game marks them)"),
        },
        Command::PlayFromHere => {
            let forced = model.play_from_here();
            Status::info(
                std::iter::once(format!("Playing on from move {}", model.moves().len()))
                    .chain(forced)
                    .collect::<Vec<_>>()
                    .join(". "),
            )
        }
        Command::SwitchLine(k) if *k < model.variations().len() => {
            model.switch_line(*k);
            Status::info(format!("Variation {} is the line now; the line before is kept as a variation", k + 1))
        }
        Command::SwitchLine(_) => Status::error("no such variation"),
        // A hint asked replaces whatever the status said (a stale refusal beside a new hint).
        Command::Hint => match model.count_hint() {
            Ok(()) => {
                let game = model.game();
                Status::info(format!(
                    "A hint for {}: searching",
                    game.player_name(game.to_move().expect("a person is to move"))
                ))
            }
            Err(why) => Status::error(format!("no hint: {why}")),
        },
        Command::Undo => {
            if model.undo_turn() {
                Status::info("Undone")
            } else {
                Status::error("nothing to undo")
            }
        }
        Command::Redo => {
            if model.redo_turn() {
                Status::info("Redone")
            } else {
                Status::error("nothing to redo")
            }
        }
        Command::End(ending) => {
            if !model.end(*ending) {
                return None;
            }
            Status::info(format!("Game over: {}", model.result_text().unwrap_or_default()))
        }
        Command::NewGame
        | Command::Menu
        | Command::Rematch
        | Command::Load(_)
        | Command::Open(_)
        | Command::OpenSeated(..) => return None,
    })
}
