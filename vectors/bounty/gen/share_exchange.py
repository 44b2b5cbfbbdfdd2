# Hand-worked vectors of abp-share-exchange/1 decisions (k=3, n=5).
import json
def E(id,held=(),contact=None): return {"agent_id":id,"shares_held":list(held),"working_on":None,"expires_in_s":1800,"contact":contact or "https://x.example/"+id}
def B(entries,cf=0): return {"challenge_id":"chal-live","round":4,"k":3,"n":5,"combinable_for_s":cf,"stalled_for_s":0,"entries":entries}
abc=[E("a",[3]),E("b",[5]),E("h",[2])]
def P(req,share=2,cid="chal-live",proto="abp-share-exchange/1",holder="h"):
    return {"protocol":proto,"challenge_id":cid,"round":4,"requester":req,"agent_id":holder,"share_index":share}
rel=[
("broker","the roster's lowest agent_id (a) is the broker",B(abc),P("a"),{"status":200,"code":"elected_broker"}),
("grace-lapsed","30 s combinable: any listed requester",B(abc,cf=30),P("b"),{"status":200,"code":"grace_lapsed"}),
("not-broker","b within the grace",B(abc,cf=10),P("b"),{"status":403,"code":"not_broker"}),
("unlisted","z has no listing",B(abc),P("z"),{"status":403,"code":"requester_unlisted"}),
("self","requester == agent_id",B(abc),P("h"),{"status":400,"code":"requester_is_holder"}),
("not-held","h does not hold 3",B(abc),P("a",share=3),{"status":404,"code":"not_held"}),
("stale","another challenge",B(abc),P("a",cid="chal-old"),{"status":409,"code":"stale_round"}),
("not-combinable","b holds nothing",B([E("a",[3]),E("b"),E("h",[2])]),P("a"),{"status":409,"code":"board_not_combinable"}),
("wrong-protocol","abp-share-exchange/0",B(abc),P("a",proto="abp-share-exchange/0"),{"status":400,"code":"bad_request"}),
]
vs=[{"id":i,"comment":c,"input":{"board":b,"pull":p},"expected":e} for i,c,b,p,e in rel]
json.dump({"protocol":"share-exchange","kind":"release","comment":"The release rule and the PULL codes (SX-RELEASE and the SX pull codes): the holder h holds share 2; hand-worked.","vectors":vs},open('/work/wt-bounty/vectors/share-exchange/release.json','w'),indent=2)
tg=[
("broker-callable","during the grace the target is the broker, if http(s)",B([E("a",[3]),E("b",[5]),E("h",[2],"mailto:h")]),"h",{"target":"a","ok":True}),
("broker-not-callable","during the grace, a broker that cannot be called means no offer",B([E("a",[3],"mailto:a"),E("b",[5]),E("h",[2],"mailto:h")]),"h",{"target":"","ok":False}),
("lapsed-lowest-callable","after the grace: the lowest callable roster member",B([E("a",[3],"mailto:a"),E("b",[5]),E("h",[2],"mailto:h")],cf=31),"h",{"target":"b","ok":True}),
("callable-holder","a holder with an http(s) contact does not offer",B(abc),"h",{"target":"","ok":False}),
("not-combinable","no coalition, no offer",B([E("a",[3]),E("h",[2],"mailto:h")]),"h",{"target":"","ok":False}),
]
vs=[{"id":i,"comment":c,"input":{"board":b,"holder":h},"expected":e} for i,c,b,h,e in tg]
json.dump({"protocol":"share-exchange","kind":"offer_target","comment":"offer_rule: whom a holder that cannot be called offers to; hand-worked.","vectors":vs},open('/work/wt-bounty/vectors/share-exchange/offer_target.json','w'),indent=2)
