//! The house rules of `docs/design.md` §Structure, checked on `src/` as Rust (with `syn`), so the
//! structure cannot drift without a failing test:
//!
//! - **no import loop** of more than 2 files in `src/app`, `src/server`, `src/cli` (nor across
//!   folders), and none at all in `src/ai` and `src/rules`: a loop is a strongly connected group of
//!   files in the graph of imports;
//! - **no file over 450 lines** in `src/app`, `src/server`, `src/net`, `src/cli`; a file elsewhere
//!   over 450 has a cap of its own in [`CAPS`], with its reason;
//! - **no `allow(clippy::too_many_arguments)`** anywhere, in `src/` and `tests/`;
//! - **the layers' directions**: `rules` imports no `ai`, `net`, `app`, `cli`, `server`; `ai` no `net`,
//!   `app`, `cli`, `server`; `net` no `ai`, `server`; `net` and `server` no `app`, `cli`; `app/flow.rs` and `app/ui.rs` import
//!   nothing else of the app;
//! - **the module graph in `docs/design.md`** is the one this test draws from the code.
//!
//! An import is every `use` tree and every path that names the crate's own items (`crate::`,
//! `super::`, `self::`, a child module, or a name a `use` bound to a module), in code, types,
//! patterns and macro invocations (`$crate::…` in `macro_rules!` bodies too), resolved per inline
//! module. It leads to the file of the longest module prefix it names: `crate::app::hud::Panel`
//! imports `app/hud/mod.rs` even when `Panel` is defined in a child of it, as that is where the
//! name is taken from. Not imports: `mod child;` declarations, a parent naming only a child's
//! `…Plugin` (to register it), doc links, and everything under `#[cfg(test)]`.
//!
//! Each check also runs on small made-up crates below (`checks_fail_on_*`), so each can be seen
//! to fail.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use syn::visit::Visit;

/// Lines a file of `src/app`, `src/server`, `src/net` or `src/cli` may have.
const MAX_LINES: usize = 450;

/// The folders where no file may pass [`MAX_LINES`].
const CAPPED_FOLDERS: &[&str] = &["app", "server", "net", "cli"];

/// How far a cap may stand above its file before the test asks for it to come down, in lines.
const CAP_SLACK: usize = 40;

/// Files over [`MAX_LINES`] outside the capped folders: (file under `src/`, its cap, why it is one
/// file). A cap keeps a long file from growing unnoticed; raise one only with a reason.
const CAPS: &[(&str, usize, &str)] = &[
    (
        "rules/tricore/mod.rs",
        1110,
        "TriCore's rules: one state type, its move generation and its outcome, each rule beside the others it interacts with (docs/rules/tricore.md)",
    ),
    (
        "rules/trigon/mod.rs",
        765,
        "Blokus Trigon's state and its incremental attach-point bookkeeping, which every move updates together (its moves, `retire` included, beside it)",
    ),
    (
        "rules/tri_it_out/mod.rs",
        740,
        "Tri-It-Out's state, its restricted-point bookkeeping and the capture step, updated together on each move",
    ),
    (
        "rules/trisq/mod.rs",
        775,
        "Trisq's state, the bridging condition and the connection win, updated together on each move",
    ),
    (
        "ai/tree/mod.rs",
        720,
        "the search tree: node storage, selection, expansion and the simulation, one hot loop kept in one file (its backup in ai/tree/backup.rs)",
    ),
];

/// Where imports may not go: (from the folder, to the folder).
const FORBIDDEN: &[(&str, &str)] = &[
    ("rules", "ai"),
    ("rules", "net"),
    ("rules", "app"),
    ("rules", "cli"),
    ("rules", "server"),
    ("ai", "net"),
    ("ai", "app"),
    ("ai", "cli"),
    ("ai", "server"),
    ("net", "ai"),
    ("net", "app"),
    ("net", "cli"),
    ("net", "server"),
    ("server", "app"),
    ("server", "cli"),
];

/// Files of the app that import nothing else of the app: the game's flow and the UI's look, which
/// everything else of the app builds on.
const APP_LEAVES: &[&str] = &["app/flow.rs", "app/ui.rs"];

/// The folders where a loop of 2 files (a parent and its child, say) is allowed.
const TWO_FILE_LOOPS_ALLOWED: &[&str] = &["app", "server", "cli"];

/// The markers around the module graph in `docs/design.md`.
const GRAPH_BEGIN: &str = "<!-- module graph: drawn by tests/structure.rs -->";
const GRAPH_END: &str = "<!-- end of module graph -->";

// ---------------------------------------------------------------------------------------------
// Reading the crate

/// One module: its file (under `src/`), the child modules it declares, what its `use`s bind.
#[derive(Default)]
struct Module {
    file: String,
    children: BTreeSet<String>,
    /// Names bound by `use` to a path of the crate (absolute, unresolved beyond that).
    aliases: BTreeMap<String, Vec<String>>,
}

/// A path seen in a module, not yet resolved: where it was written and its segments.
struct RawPath {
    scope: Vec<String>,
    file: String,
    segments: Vec<String>,
    /// From a `use` tree (binds its last segment) rather than code.
    from_use: Option<String>,
}

/// The crate as read: every module by path, every path seen, the files' texts and attributes.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    paths: Vec<RawPath>,
    /// `#[macro_export]` macros: name → the file defining it.
    exported_macros: BTreeMap<String, String>,
    /// Files with an `allow(… too_many_arguments …)`: (file, line).
    too_many_arguments: Vec<(String, usize)>,
    lines: BTreeMap<String, usize>,
    /// Files that could not be parsed or found: (file, why).
    errors: Vec<(String, String)>,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let tokens = a.meta.require_list().map(|l| l.tokens.to_string()).unwrap_or_default();
            // `cfg(test)`, `cfg(all(test, …))`; not `cfg(not(test))`.
            tokens.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "test") && !tokens.contains("not")
        }
    })
}

/// Where the file of `mod name;` declared in `file` (in inline modules `inline`) lies.
fn child_file(sources: &BTreeMap<String, String>, file: &str, inline: &[String], name: &str) -> Option<String> {
    let dir = match file.rsplit_once('/') {
        Some((dir, base)) if base == "mod.rs" || file == "lib.rs" => dir.to_string(),
        Some((dir, base)) => format!("{dir}/{}", base.trim_end_matches(".rs")),
        None if file == "lib.rs" => String::new(),
        None => file.trim_end_matches(".rs").to_string(),
    };
    let mut dir = dir;
    for m in inline {
        dir = if dir.is_empty() { m.clone() } else { format!("{dir}/{m}") };
    }
    let prefix = if dir.is_empty() { String::new() } else { format!("{dir}/") };
    [format!("{prefix}{name}.rs"), format!("{prefix}{name}/mod.rs")].into_iter().find(|f| sources.contains_key(f))
}

/// Reads the crate from its sources (paths under `src/` → text), starting at `lib.rs`.
fn read_crate(sources: &BTreeMap<String, String>) -> Crate {
    let mut krate = Crate::default();
    let mut queue = vec![("lib.rs".to_string(), Vec::<String>::new())];
    while let Some((file, path)) = queue.pop() {
        let Some(text) = sources.get(&file) else { continue };
        krate.lines.insert(file.clone(), text.lines().count());
        let parsed = match syn::parse_file(text) {
            Ok(f) => f,
            Err(e) => {
                krate.errors.push((file.clone(), format!("does not parse: {e}")));
                continue;
            }
        };
        for attr in &parsed.attrs {
            note_allow(&mut krate, &file, attr);
        }
        let mut reader = Reader {
            krate: &mut krate,
            sources,
            file: file.clone(),
            scope: path.clone(),
            inline: vec![],
            queue: vec![],
        };
        reader.module_items(&parsed.items, path.clone());
        let found = std::mem::take(&mut reader.queue);
        queue.extend(found);
    }
    krate
}

fn note_allow(krate: &mut Crate, file: &str, attr: &syn::Attribute) {
    if attr.meta.path().is_ident("allow")
        || attr.meta.path().is_ident("expect")
        || attr.meta.path().is_ident("cfg_attr")
    {
        let tokens = attr.meta.require_list().map(|l| l.tokens.to_string()).unwrap_or_default();
        if tokens.contains("too_many_arguments") {
            let line = attr.pound_token.spans[0].start().line;
            krate.too_many_arguments.push((file.to_string(), line));
        }
    }
}

/// Walks one file, module by module.
struct Reader<'a> {
    krate: &'a mut Crate,
    sources: &'a BTreeMap<String, String>,
    file: String,
    /// The module the walk is in.
    scope: Vec<String>,
    /// Inline modules entered within this file.
    inline: Vec<String>,
    queue: Vec<(String, Vec<String>)>,
}

impl Reader<'_> {
    fn module_items(&mut self, items: &[syn::Item], path: Vec<String>) {
        self.krate.modules.entry(path.clone()).or_default().file = self.file.clone();
        let saved = std::mem::replace(&mut self.scope, path);
        for item in items {
            self.item(item);
        }
        self.scope = saved;
    }

    fn item(&mut self, item: &syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Trait(t) => &t.attrs,
            syn::Item::Type(t) => &t.attrs,
            syn::Item::Macro(m) => &m.attrs,
            _ => &[],
        };
        if is_cfg_test(attrs) {
            return;
        }
        match item {
            syn::Item::Mod(m) => {
                let name = m.ident.to_string();
                let mut child = self.scope.clone();
                child.push(name.clone());
                self.krate.modules.entry(self.scope.clone()).or_default().children.insert(name.clone());
                for attr in &m.attrs {
                    note_allow(self.krate, &self.file, attr);
                }
                match &m.content {
                    Some((_, items)) => {
                        self.inline.push(name);
                        self.module_items(items, child);
                        self.inline.pop();
                    }
                    None => match child_file(self.sources, &self.file, &self.inline, &name) {
                        Some(f) => self.queue.push((f, child)),
                        None => self.krate.errors.push((self.file.clone(), format!("no file for `mod {name};`"))),
                    },
                }
            }
            syn::Item::Macro(m) if m.mac.path.is_ident("macro_rules") => {
                for attr in &m.attrs {
                    note_allow(self.krate, &self.file, attr);
                }
                if let Some(name) = &m.ident
                    && m.attrs.iter().any(|a| a.path().is_ident("macro_export"))
                {
                    self.krate.exported_macros.insert(name.to_string(), self.file.clone());
                }
                // `$crate::…` paths in the body.
                for segments in token_paths(m.mac.tokens.clone(), true) {
                    self.push_path(segments, None);
                }
            }
            other => self.visit_item(other),
        }
    }

    fn push_path(&mut self, segments: Vec<String>, from_use: Option<String>) {
        self.krate.paths.push(RawPath { scope: self.scope.clone(), file: self.file.clone(), segments, from_use });
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                if name == "self" {
                    let bound = prefix.last().cloned();
                    self.push_path(prefix.clone(), bound);
                } else {
                    let mut full = prefix.clone();
                    full.push(name.clone());
                    self.push_path(full, Some(name));
                }
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.clone();
                let ident = r.ident.to_string();
                if ident != "self" {
                    full.push(ident);
                }
                self.push_path(full, Some(r.rename.to_string()));
            }
            syn::UseTree::Glob(_) => self.push_path(prefix.clone(), None),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

/// The paths (`a::b::c`) written in a macro's tokens; with `dollar_crate_only`, only `$crate::…`.
fn token_paths(tokens: proc_macro2::TokenStream, dollar_crate_only: bool) -> Vec<Vec<String>> {
    use proc_macro2::TokenTree;
    let mut out = Vec::new();
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => {
                out.extend(token_paths(g.stream(), dollar_crate_only));
                i += 1;
            }
            TokenTree::Ident(first) => {
                let after_dollar = i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                let after_colons = i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                let mut segments = vec![first.to_string()];
                let mut j = i + 1;
                while j + 2 < trees.len()
                    && matches!(&trees[j], TokenTree::Punct(p) if p.as_char() == ':')
                    && matches!(&trees[j + 1], TokenTree::Punct(p) if p.as_char() == ':')
                {
                    match &trees[j + 2] {
                        TokenTree::Ident(next) => {
                            segments.push(next.to_string());
                            j += 3;
                        }
                        _ => break,
                    }
                }
                let wanted = if dollar_crate_only { after_dollar && segments[0] == "crate" } else { !after_colons };
                if wanted && segments.len() > 1 {
                    out.push(segments);
                }
                i = j.max(i + 1);
            }
            _ => i += 1,
        }
    }
    out
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        match item {
            // Modules and macro_rules inside functions are rare; the outer walk handles the rest.
            syn::Item::Mod(_) => self.item(item),
            syn::Item::Use(u) => {
                if !is_cfg_test(&u.attrs) {
                    let mut prefix = Vec::new();
                    self.use_tree(&mut prefix, &u.tree);
                }
            }
            _ => syn::visit::visit_item(self, item),
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    /// `pub(super)` and `pub(crate)` name modules, but import nothing.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        note_allow(self.krate, &self.file, attr);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        // A one-segment path in code is a local name or one a `use` bound (whose import is counted
        // at the `use`): never a module of its own.
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 && path.leading_colon.is_none() {
            self.push_path(segments, None);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        for segments in token_paths(mac.tokens.clone(), false) {
            self.push_path(segments, None);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Resolving paths to files

/// A path's module prefix resolved against the scope it was written in, or `None` when it is not
/// the crate's (a dependency, `std`, a local name).
fn resolve(krate: &Crate, scope: &[String], segments: &[String], depth: usize) -> Option<Vec<String>> {
    let first = segments.first()?;
    if segments.len() == 1 && matches!(first.as_str(), "crate" | "self" | "super") {
        return None;
    }
    let mut base: Vec<String>;
    let rest: &[String];
    match first.as_str() {
        "crate" => {
            base = vec![];
            rest = &segments[1..];
        }
        "self" => {
            base = scope.to_vec();
            rest = &segments[1..];
        }
        "super" => {
            base = scope.to_vec();
            let mut i = 0;
            while segments.get(i).map(String::as_str) == Some("super") {
                base.pop();
                i += 1;
            }
            rest = &segments[i..];
        }
        name => {
            let module = krate.modules.get(scope)?;
            if module.children.contains(name) {
                base = scope.to_vec();
                rest = segments;
            } else if let Some(target) = module.aliases.get(name) {
                if depth > 4 {
                    return None;
                }
                let mut joined = target.clone();
                joined.extend_from_slice(&segments[1..]);
                return resolve(krate, &[], &joined, depth + 1).or(Some(joined[1..].to_vec()));
            } else {
                return None;
            }
        }
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The file a resolved path imports, and the name it takes from there.
fn target_file(krate: &Crate, path: &[String]) -> Option<(String, String)> {
    if path.len() == 1
        && let Some(file) = krate.exported_macros.get(&path[0])
    {
        return Some((file.clone(), path[0].clone()));
    }
    for len in (0..=path.len()).rev() {
        if let Some(m) = krate.modules.get(&path[..len]) {
            let name = path.get(len).cloned().unwrap_or_default();
            return Some((m.file.clone(), name));
        }
    }
    None
}

/// The import graph: file → file → the names taken.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn import_graph(krate: &mut Crate) -> Graph {
    // What each `use` binds: resolved in a few rounds, as one `use` may build on another.
    for _ in 0..3 {
        let mut bound = Vec::new();
        for p in &krate.paths {
            if let Some(name) = &p.from_use
                && let Some(abs) = resolve(krate, &p.scope, &p.segments, 0)
            {
                let mut full = vec!["crate".to_string()];
                full.extend(abs);
                bound.push((p.scope.clone(), name.clone(), full));
            }
        }
        for (scope, name, full) in bound {
            if let Some(m) = krate.modules.get_mut(&scope) {
                m.aliases.insert(name, full);
            }
        }
    }
    let mut graph = Graph::new();
    for p in &krate.paths {
        let Some(abs) = resolve(krate, &p.scope, &p.segments, 0) else { continue };
        let Some((to, name)) = target_file(krate, &abs) else { continue };
        if std::env::var("STRUCTURE_DEBUG").is_ok_and(|d| p.file.ends_with(&d)) {
            eprintln!("{} {:?} {:?} -> {to} {name:?}", p.file, p.scope, p.segments);
        }
        if to != p.file {
            graph.entry(p.file.clone()).or_default().entry(to).or_default().insert(name);
        }
    }
    // A parent naming only a child's plugins registers them: not an import.
    for (from, targets) in graph.iter_mut() {
        let dir = from.trim_end_matches("mod.rs").trim_end_matches("lib.rs");
        targets.retain(|to, names| {
            let below = from.ends_with("mod.rs") || from == "lib.rs";
            !(below && to.starts_with(dir) && names.iter().all(|n| is_plugin(n)))
        });
    }
    graph
}

/// A child's plugin, as a parent registers it: a `…Plugin` type or a `plugin`/`…_plugin` function.
fn is_plugin(name: &str) -> bool {
    name.ends_with("Plugin") || name == "plugin" || name.ends_with("_plugin")
}

/// The strongly connected groups of files with more than one file (Tarjan's algorithm).
fn loops(graph: &Graph) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = graph.keys().chain(graph.values().flat_map(|t| t.keys())).collect();
    let nodes: Vec<&String> = nodes.into_iter().collect();
    let index_of: BTreeMap<&String, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| graph.get(*n).map(|t| t.keys().map(|k| index_of[k]).collect()).unwrap_or_default())
        .collect();
    let n = nodes.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut groups) = (Vec::new(), 0, Vec::new());
    // Iterative Tarjan: (node, next edge to look at).
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if *e < edges[v].len() {
                let w = edges[v][*e];
                *e += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut group = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        group.push(nodes[w].clone());
                        if w == v {
                            break;
                        }
                    }
                    if group.len() > 1 {
                        group.sort();
                        groups.push(group);
                    }
                }
            }
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    groups
}

/// The top folder of a file under `src/`, or a top-level file's module (`data_dir.rs`:
/// `data_dir`); `lib.rs`, the crate's root, is `""`.
fn folder(file: &str) -> &str {
    match file.split_once('/') {
        Some((f, _)) => f,
        None if file == "lib.rs" => "",
        None => file.trim_end_matches(".rs"),
    }
}

// ---------------------------------------------------------------------------------------------
// The checks

/// What the checks found wrong, one paragraph each, with the fix they suggest.
fn check(sources: &BTreeMap<String, String>, caps: &[(&str, usize, &str)]) -> Vec<String> {
    let mut krate = read_crate(sources);
    let graph = import_graph(&mut krate);
    let mut problems = Vec::new();
    for (file, why) in &krate.errors {
        problems.push(format!("src/{file}: {why}"));
    }
    for group in loops(&graph) {
        let folders: BTreeSet<&str> = group.iter().map(|f| folder(f)).collect();
        let allowed =
            group.len() <= 2 && folders.len() == 1 && folders.iter().all(|f| TWO_FILE_LOOPS_ALLOWED.contains(f));
        if allowed {
            continue;
        }
        let mut text =
            format!("import loop of {} files ({}):", group.len(), folders.into_iter().collect::<Vec<_>>().join(", "));
        for from in &group {
            for (to, names) in graph.get(from).into_iter().flatten() {
                if group.contains(to) {
                    let names: Vec<&str> = names.iter().map(String::as_str).filter(|n| !n.is_empty()).collect();
                    let _ = write!(text, "\n    src/{from} → src/{to} ({})", names.join(", "));
                }
            }
        }
        text.push_str(
            "\n  fix: move what the files take from each other into a file below them all (types beside the \
             trait or resource they belong to), so imports go one way",
        );
        problems.push(text);
    }
    for (file, &lines) in &krate.lines {
        let cap = caps.iter().find(|(f, _, _)| f == file);
        if CAPPED_FOLDERS.contains(&folder(file)) {
            if lines > MAX_LINES {
                problems.push(format!(
                    "src/{file}: {lines} lines, over {MAX_LINES}\n  fix: split it by job into files named after what they hold"
                ));
            }
            if cap.is_some() {
                problems.push(format!(
                    "src/{file}: has a cap in CAPS, but its folder allows none\n  fix: remove it from CAPS"
                ));
            }
        } else if let Some((_, cap, _)) = cap {
            if lines > *cap {
                problems.push(format!(
                    "src/{file}: {lines} lines, over its cap of {cap}\n  fix: split it, or raise its cap in tests/structure.rs with the reason"
                ));
            } else if lines <= MAX_LINES {
                problems.push(format!(
                    "src/{file}: {lines} lines, no longer over {MAX_LINES}\n  fix: remove its cap from CAPS"
                ));
            } else if cap - lines > CAP_SLACK {
                problems.push(format!(
                    "src/{file}: {lines} lines, far under its cap of {cap}\n  fix: lower its cap to {lines}"
                ));
            }
        } else if lines > MAX_LINES {
            problems.push(format!(
                "src/{file}: {lines} lines, over {MAX_LINES} with no cap\n  fix: split it, or give it a cap in CAPS with the reason it is one file"
            ));
        }
    }
    for (file, _, _) in caps {
        if !krate.lines.contains_key(*file) {
            problems.push(format!("src/{file}: in CAPS but not in the crate\n  fix: remove it from CAPS"));
        }
    }
    for (file, line) in &krate.too_many_arguments {
        problems.push(format!(
            "src/{file}:{line}: allows clippy::too_many_arguments\n  fix: group the arguments (a SystemParam, a struct of what belongs together)"
        ));
    }
    for (from, targets) in &graph {
        for (to, names) in targets {
            let (f, t) = (folder(from), folder(to));
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            if FORBIDDEN.contains(&(f, t)) {
                problems.push(format!(
                    "src/{from} imports src/{to} ({}): `{f}` may not import `{t}` (docs/design.md §Structure)\n  \
                     fix: move what it needs down into `{f}` or a layer below both",
                    names.join(", ")
                ));
            }
            if APP_LEAVES.contains(&from.as_str()) && t == "app" {
                problems.push(format!(
                    "src/{from} imports src/{to} ({}): it may import nothing else of the app\n  fix: move what it needs into it, or the use out of it",
                    names.join(", ")
                ));
            }
        }
    }
    problems
}

/// The module graph as `docs/design.md` shows it: each top folder and the folders it imports.
fn module_graph(sources: &BTreeMap<String, String>) -> String {
    let mut krate = read_crate(sources);
    let graph = import_graph(&mut krate);
    let mut layers: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, targets) in &graph {
        for to in targets.keys() {
            let (f, t) = (folder(from), folder(to));
            if f != t && !f.is_empty() && !t.is_empty() {
                layers.entry(f).or_default().insert(t);
            }
        }
    }
    let mut out = String::from("```\n");
    for (f, ts) in layers {
        let _ = writeln!(out, "{f:<7}──► {}", ts.into_iter().collect::<Vec<_>>().join(", "));
    }
    // Every loop by its files, so that a new one (even of the 2 files allowed) changes the drawing.
    let groups = loops(&graph);
    if groups.is_empty() {
        out.push_str("loops: none\n");
    }
    for group in &groups {
        let _ = writeln!(out, "loop:  {}", group.join(" ⇄ "));
    }
    out.push_str("```\n");
    out
}

fn read_sources(root: &Path) -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).expect("read src/").flatten().collect();
        entries.sort_by_key(|e| e.path());
        for entry in entries {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&path).expect("read a source file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_house_rules_hold() {
    let sources = read_sources(&manifest_dir().join("src"));
    let problems = check(&sources, CAPS);
    assert!(
        problems.is_empty(),
        "{} house rule(s) broken (docs/design.md §Structure):\n\n{}\n",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn no_clippy_setting_lets_too_many_arguments_back() {
    for name in ["clippy.toml", ".clippy.toml"] {
        let text = std::fs::read_to_string(manifest_dir().join(name)).unwrap_or_default();
        assert!(
            !text.contains("too-many-arguments"),
            "{name} raises clippy's too-many-arguments threshold: group the arguments instead"
        );
    }
    // The tests too (this file names it only to look for it).
    let tests = read_sources(&manifest_dir().join("tests"));
    for (file, text) in tests.iter().filter(|(f, _)| f.as_str() != "structure.rs") {
        assert!(
            !text.contains("too_many_arguments"),
            "tests/{file} allows too_many_arguments: group the arguments instead"
        );
    }
    let manifest = std::fs::read_to_string(manifest_dir().join("Cargo.toml")).unwrap();
    assert!(
        !manifest.contains("too_many_arguments"),
        "Cargo.toml's lints allow too_many_arguments: group the arguments instead"
    );
}

#[test]
fn the_design_shows_the_module_graph_as_it_is() {
    let sources = read_sources(&manifest_dir().join("src"));
    let drawn = module_graph(&sources);
    let design = std::fs::read_to_string(manifest_dir().join("docs/design.md")).unwrap();
    let shown = design
        .split_once(GRAPH_BEGIN)
        .and_then(|(_, rest)| rest.split_once(GRAPH_END))
        .map(|(graph, _)| graph.trim_start_matches('\n').to_string());
    assert_eq!(
        shown.as_deref(),
        Some(drawn.as_str()),
        "docs/design.md §Structure must show the module graph between `{GRAPH_BEGIN}` and `{GRAPH_END}`; as the code has it:\n\n{drawn}"
    );
}

// ---------------------------------------------------------------------------------------------
// Each check on a made-up crate, to see it fail

fn fixture(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect()
}

fn problems_mentioning(files: &[(&str, &str)], what: &str) -> Vec<String> {
    check(&fixture(files), &[("ai/tree.rs", 460, "a test")]).into_iter().filter(|p| p.contains(what)).collect()
}

#[test]
fn checks_fail_on_a_three_file_loop_in_the_app() {
    let files = [
        ("lib.rs", "pub mod app;"),
        ("app/mod.rs", "pub mod a; pub mod b; mod c;"),
        ("app/a.rs", "use super::b::B; pub struct A;"),
        ("app/b.rs", "pub struct B(crate::app::c::C);"),
        ("app/c.rs", "pub struct C; fn f() { let _ = super::a::A; }"),
    ];
    let found = problems_mentioning(&files, "import loop of 3 files");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("src/app/a.rs → src/app/b.rs (B)"), "{}", found[0]);
}

#[test]
fn checks_allow_two_files_in_the_app_but_none_in_the_rules() {
    let files = [
        ("lib.rs", "pub mod app; pub mod rules;"),
        ("app/mod.rs", "pub mod a; pub use a::A; pub struct Top;"),
        ("app/a.rs", "pub struct A(super::Top);"),
        ("rules/mod.rs", "pub mod game; pub use game::Game; pub struct Player;"),
        ("rules/game.rs", "pub trait Game { fn p(&self) -> super::Player; }"),
    ];
    let found = problems_mentioning(&files, "import loop");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("src/rules/game.rs"), "{}", found[0]);
}

#[test]
fn checks_see_loops_through_aliases_macros_and_inline_modules_but_not_tests() {
    let files = [
        ("lib.rs", "pub mod ai;"),
        ("ai/mod.rs", "pub mod x; pub mod y; #[macro_export] macro_rules! m { () => { $crate::ai::y::Y }; }"),
        // An alias, then a path through it, in an inline module.
        ("ai/x.rs", "mod inner { use crate::ai; fn f() { let _ = ai::Z; } }"),
        ("ai/y.rs", "pub struct Y; #[cfg(test)] mod tests { use crate::ai::x; }"),
    ];
    let found = problems_mentioning(&files, "import loop");
    assert_eq!(found.len(), 0, "a loop through a test module: {found:?}");
    let files = [
        ("lib.rs", "pub mod ai;"),
        ("ai/mod.rs", "pub mod x; pub mod y; #[macro_export] macro_rules! m { () => { $crate::ai::y::Y }; }"),
        ("ai/x.rs", "mod inner { use crate::ai; fn f() { let _ = ai::Z; } }"),
        ("ai/y.rs", "pub struct Y; fn g() { vec![super::x::F]; }"),
    ];
    let found = problems_mentioning(&files, "import loop of 3 files");
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn checks_let_a_parent_register_a_childs_plugin() {
    let files = [
        ("lib.rs", "pub mod app;"),
        ("app/mod.rs", "pub mod board; pub struct Board;"),
        (
            "app/board/mod.rs",
            "mod cursor; mod lattice; fn build(app: &mut App) { app.add_plugins((cursor::CursorPlugin, lattice::LatticePlugin)); } pub struct Cell;",
        ),
        ("app/board/cursor.rs", "use super::Cell; use super::lattice::L; pub struct CursorPlugin;"),
        ("app/board/lattice.rs", "use super::Cell; pub struct L; pub struct LatticePlugin;"),
    ];
    assert!(problems_mentioning(&files, "import loop").is_empty());
    let files = [
        ("lib.rs", "pub mod app;"),
        ("app/mod.rs", "pub mod board; pub struct Board;"),
        ("app/board/mod.rs", "mod cursor; mod lattice; fn build() { let _ = cursor::Cursor; } pub struct Cell;"),
        ("app/board/cursor.rs", "use super::Cell; use super::lattice::L; pub struct Cursor;"),
        ("app/board/lattice.rs", "use super::Cell; pub struct L;"),
    ];
    assert_eq!(problems_mentioning(&files, "import loop of 3 files").len(), 1);
}

#[test]
fn checks_fail_on_a_long_file_and_an_uncapped_one() {
    let long = "fn f() {}\n".repeat(MAX_LINES + 1);
    let files = [("lib.rs", "pub mod cli; pub mod ai;"), ("cli/mod.rs", long.as_str()), ("ai/mod.rs", long.as_str())];
    assert_eq!(problems_mentioning(&files, "src/cli/mod.rs: 451 lines, over 450").len(), 1);
    assert_eq!(problems_mentioning(&files, "src/ai/mod.rs: 451 lines, over 450 with no cap").len(), 1);
    let files = [("lib.rs", "pub mod ai;"), ("ai/mod.rs", "pub mod tree;"), ("ai/tree.rs", &"fn f() {}\n".repeat(461))];
    assert_eq!(problems_mentioning(&files, "src/ai/tree.rs: 461 lines, over its cap of 460").len(), 1);
    let files = [("lib.rs", "pub mod ai;"), ("ai/mod.rs", "")];
    assert_eq!(problems_mentioning(&files, "src/ai/tree.rs: in CAPS but not in the crate").len(), 1);
}

#[test]
fn checks_fail_on_too_many_arguments() {
    let files = [
        ("lib.rs", "pub mod ai;"),
        (
            "ai/mod.rs",
            "#[allow(clippy::too_many_arguments)]\nfn f(a: u8) {}\nimpl X { #[allow(clippy::too_many_arguments)] fn g() {} }",
        ),
    ];
    assert_eq!(problems_mentioning(&files, "too_many_arguments").len(), 2);
}

#[test]
fn checks_fail_on_an_import_against_the_layers() {
    let files = [
        ("lib.rs", "pub mod rules; pub mod ai; pub mod app;"),
        ("rules/mod.rs", "pub struct Move; fn f() -> crate::ai::Search { todo!() }"),
        ("ai/mod.rs", "pub struct Search(crate::rules::Move);"),
        ("app/mod.rs", "pub mod flow; pub mod ui; pub mod hud; pub struct Board;"),
        ("app/flow.rs", "pub struct Flow;"),
        ("app/ui.rs", "use crate::app::hud::GREEN;"),
        ("app/hud.rs", "pub const GREEN: u8 = 0;"),
    ];
    assert_eq!(problems_mentioning(&files, "`rules` may not import `ai`").len(), 1);
    assert_eq!(
        problems_mentioning(&files, "src/app/ui.rs imports src/app/hud.rs (GREEN): it may import nothing else").len(),
        1
    );
}

#[test]
fn the_graph_is_drawn_by_folder() {
    let files = [
        ("lib.rs", "pub mod rules; pub mod ai; pub mod cli;"),
        ("rules/mod.rs", "pub struct Move;"),
        ("ai/mod.rs", "pub struct Search(crate::rules::Move);"),
        ("cli/mod.rs", "use crate::{ai::Search, rules::Move};"),
    ];
    assert_eq!(module_graph(&fixture(&files)), "```\nai     ──► rules\ncli    ──► ai, rules\nloops: none\n```\n");
}
