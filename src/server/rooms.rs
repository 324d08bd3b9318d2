//! The service's bounded cache of [`Room`]s: least recently used out, found without a scan (the
//! rooms by their last use, in a `BTreeMap` keyed on a stamp that grows with every use).

use std::collections::{BTreeMap, HashMap};

use super::room::Room;

/// Up to `capacity` rooms by game id, each stamped ([`Room::used`]) when it was last used.
pub struct Rooms {
    rooms: HashMap<String, Room>,
    /// Each room's game id by its stamp: the first is the least recently used.
    by_use: BTreeMap<u64, String>,
    /// The last stamp given.
    tick: u64,
    capacity: usize,
}

impl Rooms {
    /// An empty cache of up to `capacity` (at least 1) rooms.
    pub fn new(capacity: usize) -> Rooms {
        Rooms { rooms: HashMap::new(), by_use: BTreeMap::new(), tick: 0, capacity: capacity.max(1) }
    }

    /// How many rooms it holds.
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    /// How many rooms it may hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Whether the room of `game_id` is held.
    pub fn contains(&self, game_id: &str) -> bool {
        self.rooms.contains_key(game_id)
    }

    /// The room of `game_id`, not counted as a use.
    pub fn get(&self, game_id: &str) -> Option<&Room> {
        self.rooms.get(game_id)
    }

    /// The room of `game_id` to change, not counted as a use.
    pub fn get_mut(&mut self, game_id: &str) -> Option<&mut Room> {
        self.rooms.get_mut(game_id)
    }

    /// The room of `game_id`, used now: it becomes the most recently used.
    pub fn touch(&mut self, game_id: &str) -> Option<&mut Room> {
        let room = self.rooms.get_mut(game_id)?;
        self.tick += 1;
        self.by_use.remove(&room.used);
        room.used = self.tick;
        self.by_use.insert(self.tick, game_id.to_string());
        Some(room)
    }

    /// Keeps `room` as the most recently used, evicting the least recently used room if the cache
    /// is full and does not hold the room's game already.
    pub fn keep(&mut self, mut room: Room) {
        let id = room.stored.setup.id.clone();
        if self.rooms.len() >= self.capacity
            && !self.rooms.contains_key(&id)
            && let Some((_, oldest)) = self.by_use.pop_first()
        {
            self.rooms.remove(&oldest);
        }
        self.tick += 1;
        room.used = self.tick;
        self.by_use.insert(self.tick, id.clone());
        if let Some(old) = self.rooms.insert(id, room) {
            self.by_use.remove(&old.used);
        }
    }

    /// Drops the room of `game_id`, if held.
    pub fn remove(&mut self, game_id: &str) {
        if let Some(room) = self.rooms.remove(game_id) {
            self.by_use.remove(&room.used);
        }
    }

    /// Drops every room.
    pub fn clear(&mut self) {
        self.rooms.clear();
        self.by_use.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::store::{GameSetup, StoredGame};

    fn room(id: &str) -> Room {
        let setup = GameSetup {
            id: id.to_string(),
            game: "trike".to_string(),
            options: serde_json::Value::Null,
            clock: None,
            days_per_move: None,
            allow_tools: false,
            code: String::new(),
            seats: vec![None, None],
            rematch_of: None,
            players: vec![None, None],
            rated: false,
            lobby: false,
            request: None,
        };
        let stored = StoredGame {
            setup,
            moves: Vec::new(),
            resigned: None,
            rematch: None,
            move_ms: Vec::new(),
            started_ms: None,
            flagged: None,
            created_ms: 0,
            ended_ms: None,
            outs: Vec::new(),
        };
        Room::load(stored).expect("a new trike game loads")
    }

    #[test]
    fn the_least_recently_used_room_leaves_first() {
        let mut rooms = Rooms::new(2);
        rooms.keep(room("a"));
        rooms.keep(room("b"));
        assert!(rooms.touch("a").is_some(), "a is now the most recently used");
        rooms.keep(room("c"));
        assert!(rooms.contains("a") && rooms.contains("c") && !rooms.contains("b"));
        rooms.keep(room("c"));
        assert_eq!(rooms.len(), 2, "keeping a held game again evicts nothing");
        rooms.remove("a");
        rooms.keep(room("d"));
        rooms.keep(room("e"));
        assert!(rooms.contains("d") && rooms.contains("e") && !rooms.contains("c"));
        assert!(rooms.get("c").is_none() && rooms.touch("c").is_none());
        rooms.clear();
        assert_eq!(rooms.len(), 0);
    }
}
