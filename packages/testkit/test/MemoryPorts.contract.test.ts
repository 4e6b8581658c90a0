import { MemoryPorts } from "@cisbook/testkit/MemoryPorts"
import { portContracts } from "@cisbook/testkit/contracts/PortContracts"

portContracts("MemoryPorts", MemoryPorts)
