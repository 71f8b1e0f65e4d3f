/// The core commands of issue 5: selects, reads, variables, settings, scripts, help.
package enum CoreModule {
    /// The module value.
    package static let module = Module(
        name: "core",
        commands: [
            ListCommand.self, CountCommand.self, FirstCommand.self, GetCommand.self, ExplainCommand.self,
            LetCommand.self, EchoCommand.self, SetCommand.self, SourceCommand.self, HistoryCommand.self,
            ConnectCommand.self,
            HelpCommand.self,
            QuitCommand.self, DefineCommand.self, PluginsCommand.self, RefreshCommand.self, GraphQLCommand.self,
        ])
}
