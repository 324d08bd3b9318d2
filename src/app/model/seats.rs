//! Who sits in a record's seats, and what the panel calls them: a record's player labels are
//! ours ("Human", "AI level 3": the seat plays on as that) or anyone's name ("Alice", "Pentobi", a
//! GTP engine's, selfplay's "A (AI level 3)"), which a person then plays under that name.

use crate::ai::Seat;

/// The seats of a game of `players` seats opened from a record whose player labels are `labels`
/// (one a seat, in seat order; fewer or none are allowed), and the name each seat shows.
///
/// With `kept` (a Load into the game in play) the seats are those; else each seat is what its
/// label names when the label is one of ours ([`Seat::from_label`]), a person otherwise. A seat
/// keeps the record's label as its name where the label is not one of ours and a person plays the
/// seat, here or on a server (an online game's bot or player: its name, not "Online"); an AI seat
/// is always called by its level; empty labels name nobody.
pub fn seats_of_record(labels: &[String], players: usize, kept: Option<&[Seat]>) -> (Vec<Seat>, Vec<Option<String>>) {
    let label = |k: usize| labels.get(k).map(|l| l.trim()).filter(|l| !l.is_empty());
    let seats: Vec<Seat> = (0..players)
        .map(|k| match kept {
            Some(kept) => kept.get(k).copied().unwrap_or(Seat::Human),
            None => label(k).and_then(Seat::from_label).unwrap_or(Seat::Human),
        })
        .collect();
    let names = (0..players)
        .map(|k| {
            let label = label(k)?;
            let person = matches!(seats[k], Seat::Human | Seat::Remote);
            (person && Seat::from_label(label).is_none()).then(|| label.to_string())
        })
        .collect();
    (seats, names)
}

/// What the panel calls a seat: its name when it has one, else the seat's own label ("Human", "AI
/// level 3").
pub fn seat_name(seat: Seat, name: Option<&str>) -> String {
    name.map_or_else(|| seat.label(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;

    fn labels(l: &[&str]) -> Vec<String> {
        l.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn our_labels_are_seats_and_others_are_people_with_their_names() {
        let ai3 = Seat::Ai(Level::new(3).unwrap());
        // Ours: the seats as the record had them, no names.
        assert_eq!(
            seats_of_record(&labels(&["Human", "AI level 3"]), 2, None),
            (vec![Seat::Human, ai3], vec![None, None])
        );
        // Anyone else's: a person plays under the record's name; ours still parse seat by seat.
        assert_eq!(
            seats_of_record(&labels(&["A (AI level 3)", "AI level 3"]), 2, None),
            (vec![Seat::Human, ai3], vec![Some("A (AI level 3)".to_string()), None])
        );
        assert_eq!(
            seats_of_record(&labels(&["Pentobi", "Alice"]), 2, None),
            (vec![Seat::Human; 2], vec![Some("Pentobi".to_string()), Some("Alice".to_string())])
        );
        // Missing or empty labels (Pentobi's PB alone) name nobody; extra labels are ignored.
        assert_eq!(seats_of_record(&labels(&["", " Bob "]), 3, None).1, vec![None, Some("Bob".to_string()), None]);
        assert_eq!(seats_of_record(&labels(&["x", "y", "z"]), 2, None).0.len(), 2);
        assert_eq!(seats_of_record(&[], 2, None), (vec![Seat::Human; 2], vec![None, None]));
    }

    #[test]
    fn kept_seats_stay_and_only_a_persons_seat_takes_the_records_name() {
        let ai2 = Seat::Ai(Level::new(2).unwrap());
        let (seats, names) = seats_of_record(&labels(&["Alice", "Bob"]), 2, Some(&[Seat::Human, ai2]));
        assert_eq!((seats, names), (vec![Seat::Human, ai2], vec![Some("Alice".to_string()), None]));
        assert_eq!(seat_name(ai2, None), "AI level 2");
        // An online game's seats: the server's players (a bot among them) keep their names.
        let (_, names) =
            seats_of_record(&labels(&["You (ann)", "TriboardAI-3 1512"]), 2, Some(&[Seat::Human, Seat::Remote]));
        assert_eq!(names, [Some("You (ann)".to_string()), Some("TriboardAI-3 1512".to_string())]);
        assert_eq!(seat_name(Seat::Human, Some("Alice")), "Alice");
    }
}
