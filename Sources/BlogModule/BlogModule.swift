// The blog module: the screens of Oracle's iOS blog sample (`reference/blog-sample.md`) as
// commands. `home` and `topics` list the topics, `articles` a topic's articles, `read` one article,
// `author` an author and their articles; each listing is numbered for `@n`, so the screens chain
// (`home`, `articles @2`, `read @1`) as the app's navigation does.

import OCEQShell

/// The blog commands.
package enum BlogModule {
    /// The module value.
    package static let module = Module(
        name: "blog",
        commands: [
            HomeCommand.self, TopicsCommand.self, ArticlesCommand.self, ReadCommand.self, AuthorCommand.self,
        ])
}
