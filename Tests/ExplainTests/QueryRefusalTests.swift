// A 400 from the channel for a query is shown against the statement (issue 18, item 4): a caret
// under the condition the server's complaint points to (by `q` position from `oceq serve`, by a
// value it names from OCM), under a clause it names, or under the whole statement; the server's
// words on the error line, never "position N" of its own text.

import DeliveryKit
import DeliveryTransport
import Foundation
import OCEQCore
import OCEQShell
import OCEQTestSupport
import Testing

@Suite("a server's 400 shown against the statement")
@MainActor
struct QueryRefusalTests {
    @Test(
        "oceq serve's refusal is shown under the condition at its position in q",
        arguments: [
            (
                "list updatedDate ^= 2021",
                """
                test.oceq:1:6: error: the channel refused this condition: operator sw cannot be used on datetime field \
                'updatedDate' (HTTP 400 Invalid Query; o:errorCode OCE-DELIVERY-BAD-REQUEST; explain shows the request)
                1 | list updatedDate ^= 2021
                  |      ^~~~~~~~~~~~~~~~~~~

                """
            ),
            (
                "count type=OCEGettingStartedArticle and (name ^= \"C\" or updatedDate ~~ x)",
                """
                test.oceq:1:57: error: the channel refused this condition: operator sm cannot be used on datetime \
                field 'updatedDate' (HTTP 400 Invalid Query; o:errorCode OCE-DELIVERY-BAD-REQUEST; explain shows \
                the request)
                1 | count type=OCEGettingStartedArticle and (name ^= "C" or updatedDate ~~ x)
                  |                                                         ^~~~~~~~~~~~~~~~

                """
            ),
            (
                "let n = 3\nlist type=OCEGettingStartedArticle published_date >= soon limit $n",
                """
                test.oceq:2:36: error: the channel refused this condition: operator ge needs a number or a datetime, \
                not 'soon' (HTTP 400 Invalid Query; o:errorCode OCE-DELIVERY-BAD-REQUEST; explain shows the request)
                2 | list type=OCEGettingStartedArticle published_date >= soon limit $n
                  |                                    ^~~~~~~~~~~~~~~~~~~~~~

                """
            ),
        ])
    func servedRefusal(_ statement: String, _ expected: String) async throws {
        // Checked against the catalog, these never reach the server (below); unchecked, they do.
        let shell = try Shell(unchecked: true)
        let result = await shell.run(statement)
        #expect(result.code == 1)
        #expect(result.output == "")
        #expect(result.errors == expected)
        #expect(!result.errors.contains("position"))
    }

    @Test(
        "with the channel's catalog the same statements are refused before the query is sent",
        arguments: [
            "list updatedDate ^= 2021", "count type=OCEGettingStartedArticle and (name ^= \"C\" or updatedDate ~~ x)",
        ])
    func checkedBeforeSending(_ statement: String) async throws {
        let shell = try Shell()
        let result = await shell.run(statement)
        #expect(result.code == 2, "\(result.errors)")
        #expect(result.errors.contains("updatedDate"))
        #expect(!result.errors.contains("the channel refused"))
        #expect(shell.sent().allSatisfy { $0.contains("/metadata-catalog/") })
    }

    /// A shell whose channel answers every request with `body` and status 400.
    func refusingShell(_ body: String) -> StubShell {
        StubShell(status: 400, body: body)
    }

    @Test("OCM's refusal naming a value is shown under the condition with that value")
    func recordedOCMBody() async throws {
        // The body of ../shared/fixtures/ocm-recorded/responses/ErrorTests.testSearchNotFound.json,
        // OCM's answer to q=type eq "unknown".
        let shell = refusingShell(
            #"{"detail":"Type with name unknown is not found","title":"Invalid Query","status":400,"#
                + #""type":"http://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.5.1"}"#)
        let result = await shell.run("list name ~ coffee type=unknown limit 5")
        #expect(result.code == 1)
        #expect(
            result.errors == """
                test.oceq:1:20: error: the channel refused this condition: Type with name unknown is not found \
                (HTTP 400 Invalid Query; explain shows the request)
                1 | list name ~ coffee type=unknown limit 5
                  |                    ^~~~~~~~~~~~

                """)
    }

    @Test("a refusal naming a parameter is shown under its clause")
    func clause() async throws {
        // OCM's words for an unknown field (ErrorTests.testGetItemInvalidParam.json).
        let shell = refusingShell(
            #"{"detail":"Invalid fields : User defined fields [BAD!!!] does not exist for the item CORE1","#
                + #""title":"Invalid fields : User defined fields [BAD!!!] does not exist for the item CORE1","#
                + #""status":400}"#)
        let result = await shell.run("list type=Image fields BAD limit 2")
        #expect(result.code == 1)
        #expect(result.errors.contains("error: the channel refused this clause: Invalid fields : User defined"))
        #expect(result.errors.hasSuffix("1 | list type=Image fields BAD limit 2\n  |                 ^~~~~~~~~~\n"))
    }

    @Test("a refusal that cannot be mapped underlines the whole statement with the server's words")
    func unmapped() async throws {
        let shell = refusingShell(#"{"detail":"Query is too complex","title":"Bad Request","status":400}"#)
        let result = await shell.run("count type=Image name ^= \"C\"")
        #expect(result.code == 1)
        #expect(
            result.errors == """
                test.oceq:1:1: error: the channel refused the statement: Query is too complex (HTTP 400 Bad Request; \
                explain shows the request)
                1 | count type=Image name ^= "C"
                  | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~

                """)
    }

    @Test("a 400 to a command other than a query keeps its own message")
    func notAQuery() async throws {
        let shell = refusingShell(#"{"detail":"bad id","title":"Bad Request","status":400}"#)
        let result = await shell.run("get CORE0123")
        #expect(result.code == 1)
        #expect(result.errors.contains("bad id (HTTP 400 Bad Request from GET"))
        #expect(!result.errors.contains("the channel refused"))
    }
}
