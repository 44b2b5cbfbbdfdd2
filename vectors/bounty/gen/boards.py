import json
def E(id,held=(),w=None,exp=1800): return {"agent_id":id,"shares_held":list(held),"working_on":w,"expires_in_s":exp}
def B(entries,round=1,cf=0,st=0): return {"round":round,"k":3,"n":5,"combinable_for_s":cf,"stalled_for_s":st,"entries":entries}
def M(move,share=0,roster=None,broker="",first=False,join=False,refresh=False):
    return {"move":move,"share_index":share,"roster":roster or [],"broker":broker,"first_mover":first,"join":join,"refresh":refresh}
abc=[E("a",[1]),E("b",[2]),E("c",[3])]
R3=[{"agent_id":"a","share_index":1},{"agent_id":"b","share_index":2},{"agent_id":"c","share_index":3}]
el5=[E("a",[1]),E("b"),E("c"),E("d"),E("e")]
el6=[E("a",[1]),E("b"),E("c",w=4),E("d"),E("e")]
cases=[
("empty-board-arrival","an unlisted share-less arrival on an empty board solves a cheapest share, spread by FNV-1a(agent_id) over the tied 2,3,5",B([]),"a",[],False,M("solve",3)),
("first-mover","an unlisted holder lists with first_mover when no listed agent holds a share",B([]),"a",[1],False,M("list",first=True)),
("broker-combines","the roster's lowest agent_id combines",B(abc),"a",[],False,M("combine",roster=R3,broker="a")),
("member-defers","another roster member defers to the broker during the grace",B(abc,cf=10),"c",[],False,M("defer",broker="a")),
("grace-lapsed","after broker_grace_s every member may combine",B(abc,cf=30),"c",[],False,M("combine",roster=R3,broker="a")),
("holder-grows","a listed holder solves a share that raises the matching, spread over the cheapest 2,3,5: FNV-1a(b) mod 3 = 1",B([E("a",[1]),E("b",[1])]),"b",[],False,M("solve",3)),
("election-not-elected","a listed share-less agent outside the elected window waits",B(el5,round=2),"b",[],False,M("wait")),
("election-fill-rank-1","rank_origin = (1*3) mod 5 = 3: d and e are elected; e (rank 1) takes the second candidate",B(el5,round=2),"e",[],False,M("solve",3)),
("election-fill-rank-0","d (rank 0) takes the first candidate",B(el5,round=2),"d",[],False,M("solve",2)),
("election-claimant","a share-less claimant on a raising share fills a slot and solves its claim",B(el6,round=2),"c",[],False,M("solve",4)),
("election-claim-shrinks-fill","with c's claim one slot is left: d only; e waits",B(el6,round=2),"e",[],False,M("wait")),
("election-lapsed","after solve grace_s without progress every waiter solves the least-claimed",B(el5,round=2,st=31),"b",[],False,M("solve",2)),
("refresh","a listing in its last quarter is told to refresh",B([E("a",[1],exp=400)]),"a",[],False,M("list",refresh=True)),
("join","an unlisted share-less arrival when every slot is taken lists with join",B([E("a",[1]),E("b"),E("c")]),"z",[],False,M("list",join=True)),
("closed","a closed challenge answers done",B([]),"a",[],True,M("done")),
("holder-cannot-raise","a holder whose extra share cannot raise the matching waits",B([E("a",[1]),E("b",[2])]),"a",[],False,M("wait")),
("outsider-waits","a listed agent outside a combinable roster waits",B(abc+[E("d",[4])]),"d",[],False,M("wait")),
("outsider-joins","an unlisted share-less agent lists with join when the board is combinable",B(abc),"x",[],False,M("list",join=True)),
]
vs=[{"id":c[0],"comment":c[1],"input":{"board":c[2],"caller":{"agent_id":c[3],"held":c[4],"closed":c[5]}},"expected":c[6]} for c in cases]
json.dump({"protocol":"bounty","kind":"next_move","comment":"next_move as a pure function of the board (BOUNTY-NEXT-MOVE, BOUNTY-ELECTION, BOUNTY-BROKER, BOUNTY-NEXT-SPREAD): k=3, n=5. Expected moves worked out by hand from the contract's policy text; FNV-1a 32 of 'a' is 3826002220 (mod 3 = 1), of 'b' 3876335077 (mod 3 = 1).","vectors":vs},open('/work/wt-bounty/vectors/bounty/next_move.json','w'),indent=2)
def P(listed,distinct,missing,maxc,comb,short,roster,broker,cf,el):
    return {"k_required":3,"agents_listed":listed,"distinct_shares_listed":distinct,"shares_missing_from_board":missing,"max_coalition":maxc,"combinable_now":comb,"agents_short":short,"roster":roster,"broker":broker,"combinable_for_s":cf,"broker_grace_s":30,"solve_election":el}
def EL(needed,origin,cl,fill,st=0): return {"needed":needed,"rank_origin":origin,"claimants":cl,"fill":fill,"elected":cl+fill,"grace_s":30,"stalled_for_s":st}
pcases=[
("combinable",B(abc,cf=12),P(3,3,[4,5],3,True,0,R3,"a",12,EL(0,0,[],[]))),
("exact-matching","two agents cannot cover three shares: a[1,2], b[1,2], c[1] match only 2",B([E("a",[1,2]),E("b",[1,2]),E("c",[1])]),P(3,2,[3,4,5],2,False,1,[],"",0,EL(1,0,[],[]))),
("election",B(el5,round=2),P(5,1,[2,3,4,5],1,False,2,[],"",0,EL(2,3,[],["d","e"]))),
("claimant",B(el6,round=2,st=5),P(5,1,[2,3,4,5],1,False,2,[],"",0,EL(2,3,["c"],["d"],5))),
("roster-skips-duplicate-holder","a and b both hold only 1: the roster takes a, skips b, then c and d",B([E("a",[1]),E("b",[1]),E("c",[2]),E("d",[3])]),P(4,3,[4,5],3,True,0,[{"agent_id":"a","share_index":1},{"agent_id":"c","share_index":2},{"agent_id":"d","share_index":3}],"a",0,EL(0,0,[],[]))),
]
vs=[]
for c in pcases:
    if len(c)==3: id,b,p=c; com="hand-worked"
    else: id,com,b,p=c
    if p["broker"]=="": del p["broker"]
    vs.append({"id":id,"comment":com,"input":{"board":b},"expected":p})
json.dump({"protocol":"bounty","kind":"proximity","comment":"coalition_proximity over live listings: exact maximum matching, roster (greedy by agent_id), broker, solve_election (BOUNTY-PROXIMITY, BOUNTY-BROKER, BOUNTY-ROSTER, BOUNTY-ELECTION). Hand-worked.","vectors":vs},open('/work/wt-bounty/vectors/bounty/proximity.json','w'),indent=2)
