package election
