import ArgumentParser

/// The `backstop` command: tours and tools for surviving badly behaved backends.
@main
struct BackstopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backstop",
        abstract: "Survive badly behaved backends.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, ProxyCommand.self, CheckCommand.self, ReportCommand.self, RehearseCommand.self,
        ]
    )
}
