import ChannelServer
import DeliveryKit

// Thin entry point: everything worth testing lives in the library targets.
print("oceq: not yet wired")
